/* The wire protocol codec, device side. See wire.h. No allocation, no libc
 * beyond <string.h>: it runs the same on the Mega 2560 (avr/) and the host. */
#include "wire.h"

#include <string.h>

uint16_t wire_crc16(const uint8_t *data, size_t len)
{
    /* CRC-16/CCITT-FALSE: poly 0x1021, init 0xFFFF, no reflection. Byte-wise
     * without a table (the xmodem update of avr-libc): no 512-byte table in
     * flash, and no 8-step bit loop per byte. */
    uint16_t crc = 0xFFFF;
    for (size_t i = 0; i < len; i++) {
        crc = (uint16_t)((crc >> 8) | (crc << 8));
        crc ^= data[i];
        crc ^= (uint8_t)(crc & 0xFF) >> 4;
        crc ^= (uint16_t)(crc << 12);
        crc ^= (uint16_t)((crc & 0xFF) << 5);
    }
    return crc;
}

static const char HEX[] = "0123456789ABCDEF";

/* A field: [p, p+n). */
struct span { const char *p; size_t n; };

static int span_is(struct span s, const char *text)
{
    size_t n = strlen(text);
    return s.n == n && memcmp(s.p, text, n) == 0;
}

/* Decimal, no sign, no leading zero, at most 10 digits, <= limit. */
static int parse_uint(struct span s, uint32_t limit, uint32_t *out)
{
    if (s.n == 0 || s.n > 10 || (s.n > 1 && s.p[0] == '0'))
        return 0;
    uint64_t v = 0;
    for (size_t i = 0; i < s.n; i++) {
        if (s.p[i] < '0' || s.p[i] > '9')
            return 0;
        v = v * 10 + (uint64_t)(s.p[i] - '0');
    }
    if (v > limit)
        return 0;
    *out = (uint32_t)v;
    return 1;
}

static int is_upper_hex(char c) { return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'F'); }

static int valid_uid(struct span s)
{
    if (s.n < 8 || s.n > 20 || (s.n & 1))
        return 0;
    for (size_t i = 0; i < s.n; i++)
        if (!is_upper_hex(s.p[i]))
            return 0;
    return 1;
}

/* Printable, no space: a key, a code, a status. */
static int valid_token(struct span s)
{
    if (s.n == 0)
        return 0;
    for (size_t i = 0; i < s.n; i++)
        if ((unsigned char)s.p[i] < 0x21 || (unsigned char)s.p[i] > 0x7e)
            return 0;
    return 1;
}

/* Split [p, p+n) on ',' into at most max spans; returns the count (max+1 if more). */
static size_t split(const char *p, size_t n, char sep, struct span *out, size_t max)
{
    size_t count = 0, start = 0;
    for (size_t i = 0; i <= n; i++) {
        if (i == n || p[i] == sep) {
            if (count < max)
                out[count] = (struct span){p + start, i - start};
            count++;
            start = i + 1;
        }
    }
    return count;
}

static struct span before(struct span s, char c, struct span *after, int *found)
{
    const char *hit = memchr(s.p, c, s.n);
    *found = hit != NULL;
    if (!hit) {
        *after = (struct span){s.p + s.n, 0};
        return s;
    }
    *after = (struct span){hit + 1, s.n - (size_t)(hit - s.p) - 1};
    return (struct span){s.p, (size_t)(hit - s.p)};
}

/* Spans kept per line. No valid frame but ERR (whose free text may hold commas)
 * has more than 62 fields after T_MS in 200 bytes: each needs at least a comma
 * and 2 bytes ("k=" in HB/HELLO, "0:-" in SNAP). A device that only decodes
 * commands may lower it (-DWIRE_MAX_FIELDS=8) to save stack on a small MCU. */
#ifndef WIRE_MAX_FIELDS
#define WIRE_MAX_FIELDS 64
#endif
#define MAX_FIELDS WIRE_MAX_FIELDS

static enum wire_result check_key_values(const struct span *f, size_t n, int hello)
{
    int proto = 0, fw = 0, ants = 0;
    struct span boot = {0, 0};
    int has_boot = 0;
    for (size_t i = 0; i < n; i++) {
        struct span value;
        int found;
        struct span key = before(f[i], '=', &value, &found);
        if (!found || !valid_token(key))
            return WIRE_BAD_FIELD;
        if (!hello)
            continue;
        uint32_t v;
        /* a repeated key: the last one counts, as on the host */
        if (span_is(key, "proto")) { if (!parse_uint(value, 255, &v)) proto = -1; else proto = 1; }
        else if (span_is(key, "ants")) { if (!parse_uint(value, 255, &v)) ants = -1; else ants = 1; }
        else if (span_is(key, "fw")) fw = 1;
        else if (span_is(key, "boot")) { boot = value; has_boot = 1; }
    }
    if (!hello)
        return WIRE_OK;
    if (!proto || !fw || !ants)
        return WIRE_BAD_FIELD;   /* a required key is missing */
    if (has_boot) {
        if (boot.n != 8)
            return WIRE_BAD_FIELD;
        for (size_t i = 0; i < 8; i++)
            if (!is_upper_hex(boot.p[i]))
                return WIRE_BAD_FIELD;
    }
    if (proto < 0 || ants < 0)
        return WIRE_BAD_FIELD;
    return WIRE_OK;
}

static enum wire_result check_snap(const struct span *f, size_t n)
{
    uint32_t count, ant;
    if (n == 0 || !parse_uint(f[0], 255, &count) || n != count + 1)
        return WIRE_BAD_FIELD;
    for (size_t i = 1; i < n; i++) {
        struct span uids;
        int found;
        struct span num = before(f[i], ':', &uids, &found);
        if (!found || !parse_uint(num, 255, &ant) || ant != i - 1)
            return WIRE_BAD_FIELD;
        if (uids.n == 1 && uids.p[0] == '-')
            continue;
        struct span rest = uids;
        for (;;) {
            struct span next;
            struct span uid = before(rest, '+', &next, &found);
            if (!valid_uid(uid))
                return WIRE_BAD_FIELD;
            if (!found)
                break;
            rest = next;
        }
    }
    return WIRE_OK;
}

static enum wire_result check_fields(enum wire_type type, const struct span *f, size_t n)
{
    uint32_t v;
    switch (type) {
    case WIRE_TAG:
        if (n != 3 || !(span_is(f[2], "ON") || span_is(f[2], "OFF")) ||
            !parse_uint(f[0], 255, &v) || !valid_uid(f[1]))
            return WIRE_BAD_FIELD;
        return WIRE_OK;
    case WIRE_SNAP:
        return check_snap(f, n);
    case WIRE_HELLO:
        return check_key_values(f, n, 1);
    case WIRE_HB:
        return check_key_values(f, n, 0);
    case WIRE_ERR:
        if (n < 3 || !valid_token(f[0]) || !(span_is(f[1], "-") || parse_uint(f[1], 255, &v)))
            return WIRE_BAD_FIELD;
        return WIRE_OK;
    case WIRE_ACK:
        if (n != 2 || !parse_uint(f[0], 65535, &v) || !valid_token(f[1]))
            return WIRE_BAD_FIELD;
        return WIRE_OK;
    default:
        return WIRE_BAD_FIELD;
    }
}

static const char *const TYPE_NAMES[] = {"HELLO", "TAG", "SNAP", "HB", "ERR", "ACK", "CMD"};
static const char *const COMMAND_NAMES[] = {"HELLO", "SNAP", "RESET", "CFG"};

enum wire_result wire_decode(const char *line, size_t len, struct wire_frame *out)
{
    if (len > 0 && line[len - 1] == '\r')
        len--;
    if (len > WIRE_MAX_LINE)
        return WIRE_BAD_TOO_LONG;
    if (len > 0 && line[0] == '#')
        return WIRE_DEBUG;
    if (len == 0 || line[0] != '$')
        return WIRE_BAD_NO_START;
    if (len < 6 || line[len - 5] != '*')
        return WIRE_BAD_FRAMING;
    const char *body = line + 1;
    size_t body_len = len - 6;
    uint16_t crc = wire_crc16((const uint8_t *)body, body_len);
    const char *given = line + len - 4;
    for (int i = 0; i < 4; i++)
        if (given[i] != HEX[(crc >> (12 - 4 * i)) & 0xF])
            return WIRE_BAD_CRC;
    for (size_t i = 0; i < body_len; i++) {
        unsigned char c = (unsigned char)body[i];
        if (c < 0x20 || c > 0x7e || c == '*' || c == '$')
            return WIRE_BAD_SYNTAX;
    }
    struct span parts[MAX_FIELDS + 3];
    size_t n = split(body, body_len, ',', parts, MAX_FIELDS + 3);
    if (n > MAX_FIELDS + 3)
        n = MAX_FIELDS + 3;   /* only SNAP/HB/ERR can be this long; none is checked past here */
    memset(out, 0, sizeof *out);
    if (span_is(parts[0], "CMD")) {
        if (n < 3 || !parse_uint(parts[1], 65535, &out->seq))
            return WIRE_BAD_SYNTAX;
        for (int c = 0; c < 4; c++) {
            if (span_is(parts[2], COMMAND_NAMES[c])) {
                out->type = WIRE_CMD;
                out->command = (enum wire_command)c;
                out->fields = parts[2].p + parts[2].n + (n > 3);
                out->fields_len = (size_t)(body + body_len - out->fields);
                return WIRE_OK;
            }
        }
        return WIRE_BAD_FIELD;
    }
    if (n < 3 || !parse_uint(parts[1], 65535, &out->seq) || !parse_uint(parts[2], 0xFFFFFFFFu, &out->t_ms))
        return WIRE_BAD_SYNTAX;
    int type = -1;
    for (int t = 0; t < 6; t++)
        if (span_is(parts[0], TYPE_NAMES[t]))
            type = t;
    if (type < 0)
        return WIRE_BAD_UNKNOWN_TYPE;
    out->type = (enum wire_type)type;
    out->fields = parts[2].p + parts[2].n + (n > 3);
    out->fields_len = (size_t)(body + body_len - out->fields);
    if (n == MAX_FIELDS + 3 && type != WIRE_ERR && split(body, body_len, ',', NULL, 0) > MAX_FIELDS + 3)
        return WIRE_BAD_FIELD;   /* more fields than spans: not a valid frame (see WIRE_MAX_FIELDS) */
    return check_fields(out->type, parts + 3, n - 3);
}

const char *wire_result_name(enum wire_result r)
{
    static const char *const names[] = {"ok", "debug", "too-long", "no-start", "framing",
                                        "crc", "syntax", "unknown-type", "field"};
    return names[r];
}

const char *wire_type_name(enum wire_type type) { return TYPE_NAMES[type]; }

/* -- building ------------------------------------------------------------ */

static void put(struct wire_builder *b, const char *text, size_t n)
{
    if (b->len + n > b->cap || b->len + n > WIRE_MAX_LINE - 5) {   /* room for "*CRC" */
        b->overflow = 1;
        return;
    }
    memcpy(b->buf + b->len, text, n);
    b->len += n;
}

static void put_uint(struct wire_builder *b, uint32_t v)
{
    char digits[10];
    int n = 0;
    do {
        digits[9 - n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    put(b, digits + 10 - n, (size_t)n);
}

void wire_begin(struct wire_builder *b, char *buf, size_t cap, const char *type, uint16_t seq, uint32_t t_ms)
{
    b->buf = buf;
    b->cap = cap < 8 ? 0 : cap - 7;   /* keep room for "*CRC\n\0" (+1 spare) */
    b->len = 0;
    b->overflow = 0;
    put(b, "$", 1);
    put(b, type, strlen(type));
    if (strcmp(type, "CMD") == 0) {   /* host -> device: no T_MS */
        put(b, ",", 1);
        put_uint(b, seq);
        return;
    }
    put(b, ",", 1);
    put_uint(b, seq);
    put(b, ",", 1);
    put_uint(b, t_ms);
}

void wire_add_str(struct wire_builder *b, const char *text)
{
    put(b, ",", 1);
    put(b, text, strlen(text));
}

void wire_add_uint(struct wire_builder *b, uint32_t value)
{
    put(b, ",", 1);
    put_uint(b, value);
}

void wire_append(struct wire_builder *b, const char *text) { put(b, text, strlen(text)); }

void wire_add_kv(struct wire_builder *b, const char *key, uint32_t value)
{
    put(b, ",", 1);
    put(b, key, strlen(key));
    put(b, "=", 1);
    put_uint(b, value);
}

size_t wire_end(struct wire_builder *b)
{
    if (b->overflow || b->cap == 0)
        return 0;
    uint16_t crc = wire_crc16((const uint8_t *)b->buf + 1, b->len - 1);
    char *p = b->buf + b->len;
    p[0] = '*';
    for (int i = 0; i < 4; i++)
        p[1 + i] = HEX[(crc >> (12 - 4 * i)) & 0xF];
    p[5] = '\n';
    p[6] = '\0';
    b->len += 6;
    return b->len;
}
