/* See table.h. */
#include "table.h"

#include <string.h>

static char line[WIRE_MAX_LINE + 8];

static void begin(struct table *t, struct wire_builder *b, const char *type)
{
    wire_begin(b, line, sizeof line, type, t->seq, t->now);
}

static void send(struct table *t, struct wire_builder *b)
{
    size_t n = wire_end(b);
    t->seq++;                       /* spent even if dropped: the host must see the gap */
    if (n)
        txq_put(t->tx, line, n);
}

static void send_hello(struct table *t)
{
    static const char HEX[] = "0123456789ABCDEF";
    char boot[9];
    for (int i = 0; i < 8; i++)
        boot[i] = HEX[(t->boot_id >> (28 - 4 * i)) & 0xF];
    boot[8] = '\0';
    struct wire_builder b;
    begin(t, &b, "HELLO");
    wire_add_kv(&b, "proto", 1);
    wire_add_str(&b, "fw=" FW_VERSION);
    wire_add_kv(&b, "ants", t->cfg.ants);
    wire_add_str(&b, "boot=");
    wire_append(&b, boot);
    send(t, &b);
}

static void send_err(struct table *t, const char *code, int antenna, const char *text)
{
    struct wire_builder b;
    begin(t, &b, "ERR");
    wire_add_str(&b, code);
    if (antenna < 0)
        wire_add_str(&b, "-");
    else
        wire_add_uint(&b, (uint32_t)antenna);
    wire_add_str(&b, text);
    send(t, &b);
}

static void build_snap(struct table *t, struct wire_builder *b,
                       const char *piles[][TAGS_PER_ANTENNA], const int *sizes)
{
    begin(t, b, "SNAP");
    wire_add_uint(b, t->cfg.ants);
    for (int a = 0; a < t->cfg.ants; a++) {
        wire_add_uint(b, (uint32_t)a);
        wire_append(b, sizes[a] ? ":" : ":-");
        for (int i = 0; i < sizes[a]; i++) {
            if (i)
                wire_append(b, "+");
            wire_append(b, piles[a][i]);
        }
    }
}

/* SNAP within the line limit: while it does not fit, trim the biggest pile, and
 * say so first (ERR snap-partial) so the host keeps what it knows of that pile. */
static void send_snap(struct table *t)
{
    const char *piles[MAX_ANTENNAS][TAGS_PER_ANTENNA];
    int sizes[MAX_ANTENNAS], full[MAX_ANTENNAS];
    for (int a = 0; a < t->cfg.ants; a++)
        sizes[a] = full[a] = antenna_present(&t->antennas[a], piles[a], TAGS_PER_ANTENNA);
    struct wire_builder b;
    for (build_snap(t, &b, piles, sizes); b.overflow; build_snap(t, &b, piles, sizes)) {
        int biggest = 0;
        for (int a = 1; a < t->cfg.ants; a++)
            if (sizes[a] > sizes[biggest])
                biggest = a;
        sizes[biggest]--;
    }
    for (int a = 0; a < t->cfg.ants; a++)
        if (sizes[a] < full[a])
            send_err(t, "snap-partial", a, "the next SNAP lists part of this pile");
    build_snap(t, &b, piles, sizes);   /* again: the ERR frames took SEQ numbers */
    send(t, &b);
}

static void send_hb(struct table *t)
{
    uint32_t errors = 0, reinits = 0;
    for (int a = 0; a < t->cfg.ants; a++) {
        errors += t->antennas[a].errors;
        reinits += t->antennas[a].reinits;
    }
    struct wire_builder b;
    begin(t, &b, "HB");
    wire_add_kv(&b, "up", t->now / 1000);
    wire_add_kv(&b, "sweeps", t->sweeps);
    wire_add_kv(&b, "txdrop", t->tx->dropped);
    wire_add_kv(&b, "rderr", errors);
    wire_add_kv(&b, "reinit", reinits);
    wire_add_kv(&b, "rxbad", t->rx_bad);
    send(t, &b);
}

void table_init(struct table *t, const struct table_config *cfg, const struct reader_ops *ops,
                void **readers, struct txq *tx, uint32_t boot_id, uint32_t now_ms)
{
    memset(t, 0, sizeof *t);
    t->cfg = *cfg;
    if (t->cfg.ants > MAX_ANTENNAS)
        t->cfg.ants = MAX_ANTENNAS;
    t->ops = ops;
    t->readers = readers;
    t->tx = tx;
    t->boot_id = boot_id;
    t->now = now_ms;
    t->next_hb = now_ms + cfg->hb_ms;
    t->next_snap = now_ms + cfg->snap_ms;
    for (int a = 0; a < t->cfg.ants; a++) {
        ops->init(readers[a]);
        t->reinit_quiet_until[a] = now_ms;
    }
    send_hello(t);
}

/* The debounce has settled once every antenna was scanned enough times to
 * confirm what lies on it: a SNAP before that would report a full table empty. */
static int settled(const struct table *t)
{
    uint32_t need = t->cfg.on_scans > t->cfg.off_scans ? t->cfg.on_scans : t->cfg.off_scans;
    return t->sweeps >= need;
}

void table_poll(struct table *t, uint32_t now_ms)
{
    t->now = now_ms;
    int a = t->next_antenna;
    struct antenna *ant = &t->antennas[a];
    uid_hex reads[READS_PER_SCAN];
    uint32_t reinits = ant->reinits;
    int n = scan_antenna(ant, t->ops, t->readers[a], reads);
    if (ant->reinits != reinits && (int32_t)(now_ms - t->reinit_quiet_until[a]) >= 0) {
        t->reinit_quiet_until[a] = now_ms + REINIT_ERR_EVERY_MS;
        send_err(t, "reader-reinit", a, "reader re-initialised after repeated errors");
    }
    if (n >= 0) {
        struct edge edges[TAGS_PER_ANTENNA + READS_PER_SCAN];
        int e = debounce_scan(ant, reads, n, t->cfg.on_scans, t->cfg.off_scans, edges,
                              TAGS_PER_ANTENNA + READS_PER_SCAN);
        for (int i = 0; i < e; i++) {
            struct wire_builder b;
            begin(t, &b, "TAG");
            wire_add_uint(&b, (uint32_t)a);
            wire_add_str(&b, edges[i].uid);
            wire_add_str(&b, edges[i].on ? "ON" : "OFF");
            send(t, &b);
        }
    }
    if (++t->next_antenna >= t->cfg.ants) {
        t->next_antenna = 0;
        t->sweeps++;
    }
    if ((int32_t)(now_ms - t->next_hb) >= 0) {
        t->next_hb = now_ms + t->cfg.hb_ms;
        send_hb(t);
    }
    if (settled(t) && (t->snap_asked || (int32_t)(now_ms - t->next_snap) >= 0)) {
        t->snap_asked = 0;
        t->next_snap = now_ms + t->cfg.snap_ms;
        send_snap(t);
    }
}

static void command(struct table *t, const char *text, size_t n)
{
    struct wire_frame f;
    enum wire_result r = wire_decode(text, n, &f);
    if (r == WIRE_DEBUG)
        return;
    if (r != WIRE_OK || f.type != WIRE_CMD) {
        t->rx_bad++;
        send_err(t, "bad-cmd", -1, r != WIRE_OK ? wire_result_name(r) : "not a command");
        return;
    }
    struct wire_builder b;
    begin(t, &b, "ACK");
    wire_add_uint(&b, f.seq);
    wire_add_str(&b, f.command == WIRE_CMD_CFG ? "unsupported" : "OK");
    send(t, &b);
    if (f.command == WIRE_CMD_HELLO)
        send_hello(t);
    else if (f.command == WIRE_CMD_SNAP)
        t->snap_asked = 1;          /* answered by table_poll once settled */
    else if (f.command == WIRE_CMD_RESET)
        t->reset_asked = 1;
}

void table_rx(struct table *t, const uint8_t *data, size_t n, uint32_t now_ms)
{
    t->now = now_ms;
    for (size_t i = 0; i < n; i++) {
        char c = (char)data[i];
        if (c == '\n') {
            if (t->rx_skip) {
                t->rx_bad++;
                send_err(t, "bad-cmd", -1, "too-long");
            } else {
                command(t, t->rx, t->rx_len);
            }
            t->rx_len = 0;
            t->rx_skip = 0;
        } else if (t->rx_len < sizeof t->rx) {
            t->rx[t->rx_len++] = c;
        } else {
            t->rx_skip = 1;
        }
    }
}
