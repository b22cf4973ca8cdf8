/* Host-side unit tests of the firmware's board-free logic: the transmit queue,
 * the wake-up scan pattern, field cycling, reader re-initialisation, and the
 * table core's frames. Readers are simulated ISO 14443-A fields of tags with
 * their IDLE / READY / HALT states, which is what makes the wake-up pattern
 * matter: a tag left in HALT only answers WUPA, never REQA.
 *
 * Built and run by tests/firmware_bridge/test_bridge_firmware_c.py. */
#include <stdio.h>
#include <string.h>

#include "../scan.h"
#include "../table.h"
#include "../txq.h"
#include "../wire.h"
#include "check.h"


/* -- a simulated reader ---------------------------------------------------- */
/* ISO 14443-3 in brief: WUPA wakes IDLE and HALT tags, REQA only IDLE ones; the
 * tags that lose the anticollision stay READY until the next command, then fall
 * back to IDLE, or to HALT if WUPA woke them from HALT (READY*). The register-
 * level models in ../sim/ do the same bit by bit (test_mfrc522.c). */
enum { IDLE, READY, ACTIVE, HALT };
struct sim_tag { uint8_t uid[7]; int state; int from_halt; int present; };
struct sim_reader {
    struct sim_tag tags[12];
    int ntags;
    int field_on, field_cycles, inits, fail_next;
};

static int sim_init(void *c) { struct sim_reader *r = c; r->inits++; r->field_on = 1; r->fail_next = 0; return 1; }
static int sim_field(void *c, int on)
{
    struct sim_reader *r = c;
    if (!on && r->field_on)
        r->field_cycles++;
    r->field_on = on;
    if (!on)
        for (int i = 0; i < r->ntags; i++)
            r->tags[i].state = IDLE;   /* power lost: every tag resets */
    return 1;
}
static void fall_back(struct sim_tag *t)
{
    if (t->state == READY || t->state == ACTIVE)
        t->state = t->from_halt ? HALT : IDLE;
}
static int answer(struct sim_reader *r, int wake)
{
    if (r->fail_next) {
        r->fail_next--;
        return -1;
    }
    int any = 0;
    for (int i = 0; i < r->ntags; i++) {
        struct sim_tag *t = &r->tags[i];
        if (!t->present || !r->field_on)
            continue;
        if (t->state == IDLE || (wake && t->state == HALT)) {
            t->from_halt = t->state == HALT;
            t->state = READY;
            any = 1;
        } else {
            fall_back(t);
        }
    }
    return any;
}
static int sim_wupa(void *c) { return answer(c, 1); }
static int sim_reqa(void *c) { return answer(c, 0); }
static int sim_select(void *c, uint8_t *uid, uint8_t *len)
{
    struct sim_reader *r = c;
    int pick = -1, ready = 0;
    for (int i = 0; i < r->ntags; i++)
        if (r->tags[i].present && r->tags[i].state == READY) {
            ready++;
            if (pick < 0 || memcmp(r->tags[i].uid, r->tags[pick].uid, 7) < 0)
                pick = i;
        }
    if (pick < 0)
        return 0;
    r->tags[pick].state = ACTIVE;
    memcpy(uid, r->tags[pick].uid, 7);
    *len = 7;
    return ready > 1 ? 2 : 1;
}
static int sim_halt(void *c)
{
    struct sim_reader *r = c;
    for (int i = 0; i < r->ntags; i++) {
        if (r->tags[i].state == ACTIVE) {
            r->tags[i].state = HALT;
            r->tags[i].from_halt = 0;
        } else {
            fall_back(&r->tags[i]);
        }
    }
    return 1;
}
static const struct reader_ops SIM = {sim_init, sim_field, sim_wupa, sim_reqa, sim_select, sim_halt};

static void add_tag(struct sim_reader *r, uint8_t id)
{
    struct sim_tag *t = &r->tags[r->ntags++];
    memset(t, 0, sizeof *t);
    t->uid[0] = 0x04;
    t->uid[6] = id;
    t->present = 1;
}

/* A powered reader holding tags ids[0..n-1], and an antenna that has seen nothing yet. */
static void fresh(struct sim_reader *r, struct antenna *a, const uint8_t *ids, int n)
{
    memset(r, 0, sizeof *r);
    sim_init(r);
    for (int i = 0; i < n; i++)
        add_tag(r, ids[i]);
    memset(a, 0, sizeof *a);
}

/* -- frames out of the queue ---------------------------------------------- */
static char frames[64][WIRE_MAX_LINE + 2];
static int nframes;

static void drain(struct txq *q)
{
    static char partial[WIRE_MAX_LINE + 2];
    static size_t plen;
    const uint8_t *p;
    size_t n;
    while ((n = txq_peek(q, &p)) > 0) {
        for (size_t i = 0; i < n; i++) {
            if (p[i] == '\n') {
                partial[plen] = '\0';
                if (nframes < 64)
                    strcpy(frames[nframes++], partial);
                plen = 0;
            } else if (plen < WIRE_MAX_LINE + 1) {
                partial[plen++] = (char)p[i];
            }
        }
        txq_consume(q, n);
    }
}

static int find_frame(const char *prefix)
{
    for (int i = 0; i < nframes; i++)
        if (strncmp(frames[i], prefix, strlen(prefix)) == 0)
            return i;
    return -1;
}

/* -- tests ------------------------------------------------------------------ */
static void test_txq_drops_whole_lines_and_counts(void)
{
    static struct txq q;
    txq_init(&q);
    char line[100];
    memset(line, 'x', sizeof line);
    int queued = 0;
    for (int i = 0; i < 20; i++)
        queued += txq_put(&q, line, sizeof line);
    CHECK(queued == TXQ_SIZE / 100, "queued %d lines of 100 bytes in %d", queued, TXQ_SIZE);
    CHECK(q.dropped == (uint32_t)(20 - queued), "dropped %u", (unsigned)q.dropped);
    const uint8_t *p;
    size_t n = txq_peek(&q, &p);
    txq_consume(&q, n);
    CHECK(txq_put(&q, line, sizeof line) == 1, "room again after the port took bytes");
    size_t total = 0;
    while ((n = txq_peek(&q, &p)) > 0) {   /* wraps around the end of the buffer */
        total += n;
        txq_consume(&q, n);
    }
    CHECK(total == 100, "after wrap, %zu bytes left", total);
}

static void test_wakeup_pattern_reads_a_pile_every_scan(void)
{
    static struct sim_reader r;
    struct antenna a;
    fresh(&r, &a, (const uint8_t[]){3, 1, 2}, 3);
    uid_hex reads[READS_PER_SCAN];
    for (int scan = 0; scan < 3; scan++) {
        int n = scan_antenna(&a, &SIM, &r, reads);
        CHECK(n == 3, "scan %d read %d tags of a pile of 3", scan, n);
        CHECK(!r.field_on && a.field_off, "scan %d left the pile's field off", scan);
    }
    CHECK(strcmp(reads[0], "04000000000001") == 0, "lowest UID wins anticollision: %s", reads[0]);
}

static void test_a_lone_tag_stays_halted_and_a_newcomer_makes_a_pile(void)
{
    static struct sim_reader r;
    struct antenna a;
    fresh(&r, &a, (const uint8_t[]){5}, 1);
    uid_hex reads[READS_PER_SCAN];
    for (int scan = 0; scan < 3; scan++)
        CHECK(scan_antenna(&a, &SIM, &r, reads) == 1, "the lone tag is read at scan %d", scan);
    CHECK(r.field_cycles == 0 && r.tags[0].state == HALT, "a lone tag: field kept on, tag left in HALT");
    add_tag(&r, 1);   /* a newcomer (IDLE) wins the anticollision; the halted one goes back to HALT */
    int first = scan_antenna(&a, &SIM, &r, reads);
    CHECK(first >= 1 && a.field_off, "a collision: the field goes off after this scan (%d read)", first);
    CHECK(scan_antenna(&a, &SIM, &r, reads) == 2, "and the next scan reads both");
}

static void test_a_failing_reader_is_reinitialised(void)
{
    static struct sim_reader r;
    struct antenna a;
    fresh(&r, &a, (const uint8_t[]){1}, 1);
    r.fail_next = 3;
    uid_hex reads[READS_PER_SCAN];
    int results[4];
    for (int i = 0; i < 4; i++)
        results[i] = scan_antenna(&a, &SIM, &r, reads);
    CHECK(results[0] == -1 && results[2] == -1, "failed scans report -1");
    CHECK(r.inits == 2 && a.reinits == 1, "inits %d, reinits %u", r.inits, (unsigned)a.reinits);
    CHECK(results[3] == 1, "the reader reads again after re-init (%d)", results[3]);
}

static struct sim_reader readers[MAX_ANTENNAS];
static void *ctx[MAX_ANTENNAS];
static struct txq tx;
static struct table table;

static void start_table(int ants)
{
    memset(readers, 0, sizeof readers);
    for (int i = 0; i < MAX_ANTENNAS; i++)
        ctx[i] = &readers[i];
    txq_init(&tx);
    nframes = 0;
    struct table_config cfg = {(uint8_t)ants, 2, 2, 500, 5000};
    table_init(&table, &cfg, &SIM, ctx, &tx, 0x1A2B3C4Du, 0);
}

static void sweep(int times, uint32_t *now)
{
    for (int i = 0; i < times * table.cfg.ants; i++)
        table_poll(&table, (*now) += 2);
}

static void test_table_frames(void)
{
    start_table(3);
    uint32_t now = 0;
    add_tag(&readers[1], 9);
    table_rx(&table, (const uint8_t *)"$CMD,41,SNAP*4653\n", 18, now);
    sweep(1, &now);
    drain(&tx);
    CHECK(find_frame("$HELLO,0,0,proto=1,fw=" FW_VERSION ",ants=3,boot=1A2B3C4D*") == 0, "HELLO first: %s", frames[0]);
    CHECK(find_frame("$ACK,1,0,41,OK*") == 1, "ACK of host seq 41 next: %s", frames[1]);
    CHECK(find_frame("$SNAP") < 0, "no SNAP before the debounce settled");
    sweep(2, &now);
    drain(&tx);
    int tag = find_frame("$TAG,2,"), snap = find_frame("$SNAP,");
    CHECK(tag >= 0 && strstr(frames[tag], ",1,04000000000009,ON*") != NULL, "TAG ON on antenna 1");
    CHECK(snap > tag && strstr(frames[snap], ",3,0:-,1:04000000000009,2:-*") != NULL, "SNAP: %s",
          snap >= 0 ? frames[snap] : "none");
    for (int i = 0; i < nframes; i++) {
        struct wire_frame f;
        CHECK(wire_decode(frames[i], strlen(frames[i]), &f) == WIRE_OK, "valid frame: %s", frames[i]);
        CHECK(f.seq == (uint32_t)i, "SEQ %u at frame %d", (unsigned)f.seq, i);
    }
}

static void test_bad_commands_are_answered_with_err(void)
{
    start_table(1);
    nframes = 0;
    drain(&tx);
    nframes = 0;
    table_rx(&table, (const uint8_t *)"$CMD,41,SNAP*0000\nhello\n", 24, 1);
    char big[300];
    memset(big, 'A', sizeof big);
    table_rx(&table, (const uint8_t *)big, sizeof big, 1);
    table_rx(&table, (const uint8_t *)"\n$CMD,7,RESET*A974\n", 19, 1);
    drain(&tx);
    CHECK(nframes == 4, "%d frames", nframes);
    CHECK(strstr(frames[0], ",bad-cmd,-,crc*") != NULL, "%s", frames[0]);
    CHECK(strstr(frames[1], ",bad-cmd,-,no-start*") != NULL, "%s", frames[1]);
    CHECK(strstr(frames[2], ",bad-cmd,-,too-long*") != NULL, "%s", frames[2]);
    CHECK(table.reset_asked && table.rx_bad == 3, "RESET asked, 3 bad commands");
}

static void test_a_snap_of_a_full_table_stays_within_200_bytes(void)
{
    start_table(9);
    uint32_t now = 0;
    for (int a = 5; a < 9; a++)
        for (int k = 0; k < 8; k++)
            add_tag(&readers[a], (uint8_t)(a * 16 + k));
    for (int i = 0; i < 12; i++) {   /* READS_PER_SCAN at a time: let every pile fill its 8 tracks */
        sweep(1, &now);
        drain(&tx);
        nframes = 0;
    }
    table_rx(&table, (const uint8_t *)"$CMD,41,SNAP*4653\n", 18, now);
    sweep(1, &now);
    drain(&tx);
    int snap = find_frame("$SNAP,"), partial = find_frame("$ERR,");
    CHECK(snap >= 0 && strlen(frames[snap]) <= WIRE_MAX_LINE, "SNAP of %zu bytes",
          snap >= 0 ? strlen(frames[snap]) : 0);
    CHECK(partial >= 0 && partial < snap && strstr(frames[partial], ",snap-partial,") != NULL,
          "ERR snap-partial before the SNAP");
}

static void test_a_full_queue_drops_but_spends_seq(void)
{
    start_table(1);
    uint32_t now = 0;
    for (int i = 0; i < 40; i++)   /* nobody drains: the host stopped reading */
        table_rx(&table, (const uint8_t *)"$CMD,0,HELLO*8454\n", 18, now);
    CHECK(tx.dropped > 0, "frames dropped when the queue is full");
    CHECK(table.seq == 81, "SEQ spent on every frame, sent or not (%u)", (unsigned)table.seq);
}

int main(void)
{
    test_txq_drops_whole_lines_and_counts();
    test_wakeup_pattern_reads_a_pile_every_scan();
    test_a_lone_tag_stays_halted_and_a_newcomer_makes_a_pile();
    test_a_failing_reader_is_reinitialised();
    test_table_frames();
    test_bad_commands_are_answered_with_err();
    test_a_snap_of_a_full_table_stays_within_200_bytes();
    test_a_full_queue_drops_but_spends_seq();
    printf("%d checks, %d failures\n", checks, failures);
    return failures ? 1 : 0;
}
