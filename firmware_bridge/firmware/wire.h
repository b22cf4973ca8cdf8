/* The table's wire protocol, device side: portable C99, no Arduino headers.
 *
 * Same rules as the host's firmware_bridge/protocol.py (DESIGN: "The table's
 * wire protocol"): $<TYPE>,<SEQ>,<T_MS>[,<field>]*<CRC>, CRC-16/CCITT-FALSE of
 * the bytes between '$' and '*', at most 200 bytes per line. The decoder
 * rejects a line with the same kind names as the host, and vectors.txt holds
 * the cases both must agree on (tests/firmware_bridge/test_bridge_firmware_c.py).
 */
#ifndef BELOTE_WIRE_H
#define BELOTE_WIRE_H

#include <stddef.h>
#include <stdint.h>

#define WIRE_MAX_LINE 200          /* bytes from '$' or '#' to the last byte before '\n' */

/* What a line decoded to: a frame, a debug line, or why it was rejected. */
enum wire_result {
    WIRE_OK = 0,
    WIRE_DEBUG,
    WIRE_BAD_TOO_LONG,
    WIRE_BAD_NO_START,
    WIRE_BAD_FRAMING,
    WIRE_BAD_CRC,
    WIRE_BAD_SYNTAX,
    WIRE_BAD_UNKNOWN_TYPE,
    WIRE_BAD_FIELD
};

enum wire_type { WIRE_HELLO, WIRE_TAG, WIRE_SNAP, WIRE_HB, WIRE_ERR, WIRE_ACK, WIRE_CMD };
enum wire_command { WIRE_CMD_HELLO, WIRE_CMD_SNAP, WIRE_CMD_RESET, WIRE_CMD_CFG };

struct wire_frame {
    enum wire_type type;
    uint32_t seq;            /* SEQ, or the host seq of a CMD */
    uint32_t t_ms;           /* 0 for a CMD */
    enum wire_command command;   /* CMD only */
    const char *fields;      /* the fields after T_MS (after the command for CMD), not terminated */
    size_t fields_len;
};

uint16_t wire_crc16(const uint8_t *data, size_t len);

/* Decode one line (without '\n'; a trailing '\r' is tolerated). */
enum wire_result wire_decode(const char *line, size_t len, struct wire_frame *out);

/* The host's name for a result ("crc", "too-long"...), "ok" or "debug". */
const char *wire_result_name(enum wire_result result);
const char *wire_type_name(enum wire_type type);

/* Building a frame in a caller's buffer: begin, add fields, end. A frame that
 * would pass the line limit fails at wire_end (returns 0), never overflows. */
struct wire_builder {
    char *buf;
    size_t cap;
    size_t len;
    int overflow;
};

void wire_begin(struct wire_builder *b, char *buf, size_t cap, const char *type, uint16_t seq, uint32_t t_ms);
void wire_add_str(struct wire_builder *b, const char *text);    /* ",text" */
void wire_add_uint(struct wire_builder *b, uint32_t value);     /* ",123" */
void wire_append(struct wire_builder *b, const char *text);     /* text, no comma */
void wire_add_kv(struct wire_builder *b, const char *key, uint32_t value);   /* ",key=123" */
/* Adds "*CRC\n" and a terminating NUL; returns the line length with its '\n', or 0 over the limit. */
size_t wire_end(struct wire_builder *b);

#endif
