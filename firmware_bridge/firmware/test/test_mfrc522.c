/* The MFRC522 driver against the simulator's register-level reader and tag
 * models, on the host (ASan/UBSan): REQA/WUPA, anticollision and select for
 * 4-, 7- and 10-byte UIDs, piles that collide, HALT, the field cycle, read
 * misses, a dead chip and its soft reset, and the table core scanning nine
 * readers through the real driver. The board's port (mfrc522_port.h) is
 * implemented here over the models with a clock that SPI bytes and pauses
 * advance, so timings are those of the models, not of this machine.
 *
 * Built with the Mega's sizes (-DREADS_PER_SCAN=8 -DMAX_ANTENNAS=9) and run
 * by tests/firmware_bridge/test_bridge_firmware_c.py. */
#include <stdio.h>
#include <string.h>

#include "../crc_a.h"
#include "../mfrc522.h"
#include "../mfrc522_port.h"
#include "../mfrc522_regs.h"
#include "../scan.h"
#include "../table.h"
#include "../sim/mfrc522_model.h"
#include "check.h"


/* -- the port, over the models ---------------------------------------------- */
#define CHIPS 9
static struct mfrc522_model chips[CHIPS];
static uint64_t now_ns;
static int selected = -1;

void port_select(uint8_t chip)
{
    selected = chip;
    mfrc522_model_nss(&chips[chip], 1, now_ns);
}

void port_deselect(uint8_t chip)
{
    mfrc522_model_nss(&chips[chip], 0, now_ns);
    selected = -1;
}

uint8_t port_transfer(uint8_t out)
{
    now_ns += 2000;   /* a byte at 8 MHz and the AVR's loop around it: about 2 us */
    return selected < 0 ? 0xFF : mfrc522_model_spi(&chips[selected], out, now_ns);
}

void port_pause_us(uint16_t us) { now_ns += (uint64_t)us * 1000; }

/* -- helpers ----------------------------------------------------------------- */
static struct mfrc522 readers[CHIPS];

static void fresh(void)
{
    now_ns = 0;
    for (int i = 0; i < CHIPS; i++) {
        mfrc522_model_init(&chips[i], 1000 + (uint64_t)i);
        readers[i] = (struct mfrc522){.chip = (uint8_t)i, .rx_gain = RX_GAIN_48DB};
    }
}

static void place(int chip, const char *hex)
{
    uint8_t uid[10];
    uint8_t n = (uint8_t)(strlen(hex) / 2);
    for (uint8_t i = 0; i < n; i++)
        sscanf(hex + 2 * i, "%2hhx", &uid[i]);
    mfrc522_model_place(&chips[chip], uid, n, now_ns);
}

static int read_one(struct mfrc522 *r, char *hex)
{
    uint8_t uid[UID_MAX_BYTES], len = 0;
    int s = MFRC522_OPS.select(r, uid, &len);
    if (s > 0)
        uid_to_hex(uid, len, hex);
    return s;
}

static int seen(uid_hex *reads, int n, const char *uid)
{
    for (int i = 0; i < n; i++)
        if (strcmp(reads[i], uid) == 0)
            return 1;
    return 0;
}

/* -- tests ------------------------------------------------------------------- */
static void test_crc_a_matches_iso_14443_3(void)
{
    const uint8_t hlta[2] = {0x50, 0x00}, zeros[2] = {0x00, 0x00};
    CHECK(crc_a(hlta, 2) == 0xCD57, "HLTA carries 57 CD, got %04X", crc_a(hlta, 2));
    CHECK(crc_a(zeros, 2) == 0x1EA0, "00 00 -> A0 1E, got %04X", crc_a(zeros, 2));
}

static void test_init_configures_timer_gain_and_field(void)
{
    fresh();
    struct mfrc522_model *m = &chips[0];
    CHECK(MFRC522_OPS.init(&readers[0]) == 1, "init answers 1");
    CHECK(m->soft_resets == 1, "one soft reset (%u)", (unsigned)m->soft_resets);
    CHECK((m->reg[RFCfgReg] & RX_GAIN_MASK) == RX_GAIN_48DB, "receiver gain 48 dB: %02X", m->reg[RFCfgReg]);
    CHECK(m->reg[TModeReg] & TAUTO, "the timer starts at the end of each frame");
    CHECK(m->field, "field on");
    CHECK(readers[0].version == 0x92, "version %02X", readers[0].version);
    readers[1].rx_gain = RX_GAIN_33DB;
    MFRC522_OPS.init(&readers[1]);
    CHECK((chips[1].reg[RFCfgReg] & RX_GAIN_MASK) == RX_GAIN_33DB, "a lower gain when asked");
}

static void test_an_empty_antenna_times_out_in_about_a_millisecond(void)
{
    fresh();
    MFRC522_OPS.init(&readers[0]);
    uint64_t t0 = now_ns;
    CHECK(MFRC522_OPS.wupa(&readers[0]) == 0, "nobody answers");
    double ms = (double)(now_ns - t0) / 1e6;
    CHECK(ms > 1.0 && ms < 1.4, "an empty WUPA costs %.3f ms", ms);
}

static void test_uids_of_4_7_and_10_bytes_are_read_whole(void)
{
    const char *uids[] = {"DEADBEEF", "04A1B2C3D4E5F6", "0811223344556677AABB"};
    for (int i = 0; i < 3; i++) {
        fresh();
        place(0, uids[i]);
        MFRC522_OPS.init(&readers[0]);
        char hex[UID_HEX_LEN] = "";
        CHECK(MFRC522_OPS.wupa(&readers[0]) == 1, "%s answers WUPA", uids[i]);
        CHECK(read_one(&readers[0], hex) == 1 && strcmp(hex, uids[i]) == 0, "read %s as %s", uids[i], hex);
        CHECK(chips[0].tags[0].state == PICC_ACTIVE, "%s selected", uids[i]);
        CHECK(MFRC522_OPS.halt(&readers[0]) == 1 && chips[0].tags[0].state == PICC_HALT, "%s halted", uids[i]);
        CHECK(MFRC522_OPS.reqa(&readers[0]) == 0, "a halted tag ignores REQA");
        CHECK(MFRC522_OPS.wupa(&readers[0]) == 1, "and answers WUPA");
    }
}

static void test_a_pile_that_collides_is_read_tag_by_tag(void)
{
    /* UIDs that first differ at many bit positions, at both cascade levels, and mixed sizes */
    const char *pile[] = {"04A1B2C3D4E5F6", "04A1B2C3D4E5F7", "04A1B2C3D4E5E6", "04A1B3C3D4E5F6",
                          "05A1B2C3D4E5F6", "DEADBEEF", "DEADBEEE", "04A1B2C3D5E5F6"};
    fresh();
    for (int i = 0; i < 8; i++)
        place(2, pile[i]);
    struct antenna a;
    memset(&a, 0, sizeof a);
    MFRC522_OPS.init(&readers[2]);
    uid_hex reads[READS_PER_SCAN];
    for (int scan = 0; scan < 3; scan++) {
        int n = scan_antenna(&a, &MFRC522_OPS, &readers[2], reads);
        CHECK(n == 8, "scan %d read %d of 8", scan, n);
        for (int i = 0; i < 8; i++)
            CHECK(seen(reads, n, pile[i]), "scan %d read %s", scan, pile[i]);
    }
    CHECK(chips[2].unsupported == 0, "only the commands of the datasheet we model");
}

static void test_a_field_cycle_resets_halted_tags(void)
{
    fresh();
    place(0, "04A1B2C3D4E5F6");
    MFRC522_OPS.init(&readers[0]);
    char hex[UID_HEX_LEN];
    MFRC522_OPS.wupa(&readers[0]);
    read_one(&readers[0], hex);
    MFRC522_OPS.halt(&readers[0]);
    CHECK(MFRC522_OPS.reqa(&readers[0]) == 0, "halted");
    CHECK(MFRC522_OPS.field(&readers[0], 0) == 1 && MFRC522_OPS.field(&readers[0], 1) == 1, "field cycled");
    CHECK(MFRC522_OPS.reqa(&readers[0]) == 1, "after the field cycle the tag answers REQA again");
}

static void test_a_tag_placed_needs_its_startup_time(void)
{
    fresh();
    MFRC522_OPS.init(&readers[0]);
    place(0, "04A1B2C3D4E5F6");
    CHECK(MFRC522_OPS.wupa(&readers[0]) == 0, "a tag just placed is still powering up");
    port_pause_us(5000);
    CHECK(MFRC522_OPS.wupa(&readers[0]) == 1, "5 ms later it answers");
}

static void test_a_dead_reader_fails_and_is_soft_reset_when_it_returns(void)
{
    fresh();
    place(1, "04A1B2C3D4E5F6");
    struct antenna a;
    memset(&a, 0, sizeof a);
    MFRC522_OPS.init(&readers[1]);
    uid_hex reads[READS_PER_SCAN];
    CHECK(scan_antenna(&a, &MFRC522_OPS, &readers[1], reads) == 1, "reads while alive");
    chips[1].dead = 1;
    int fails = 0;
    for (int i = 0; i < REINIT_AFTER_ERRORS; i++)
        fails += scan_antenna(&a, &MFRC522_OPS, &readers[1], reads) == -1;
    CHECK(fails == REINIT_AFTER_ERRORS && a.reinits == 1, "%d failed scans, %u re-inits", fails, (unsigned)a.reinits);
    chips[1].dead = 0;
    uint32_t resets = chips[1].soft_resets;
    for (int i = 0; i < REINIT_AFTER_ERRORS; i++)   /* the chip is back but was reset: the field is off */
        scan_antenna(&a, &MFRC522_OPS, &readers[1], reads);
    int n = scan_antenna(&a, &MFRC522_OPS, &readers[1], reads);
    CHECK(chips[1].soft_resets >= resets, "soft reset issued");
    CHECK(n == 1 && strcmp(reads[0], "04A1B2C3D4E5F6") == 0, "reads again after its soft reset (%d)", n);
}

static void test_read_misses_come_at_the_rate_asked(void)
{
    fresh();
    place(0, "04A1B2C3D4E5F6");
    chips[0].miss_rate = 0.3;
    struct antenna a;
    memset(&a, 0, sizeof a);
    MFRC522_OPS.init(&readers[0]);
    uid_hex reads[READS_PER_SCAN];
    int hits = 0, errors = 0;
    for (int i = 0; i < 400; i++) {
        int n = scan_antenna(&a, &MFRC522_OPS, &readers[0], reads);
        hits += n == 1;
        errors += n < 0;
    }
    CHECK(hits > 240 && hits < 320, "%d reads of 400 at a 30 %% miss rate", hits);
    CHECK(errors == 0 && a.reinits == 0, "a miss is not a reader error");
}

static void test_the_table_core_streams_tags_through_the_real_driver(void)
{
    fresh();
    static struct txq tx;
    static struct table t;
    static void *ctx[CHIPS];
    for (int i = 0; i < CHIPS; i++)
        ctx[i] = &readers[i];
    txq_init(&tx);
    struct table_config cfg = {CHIPS, 2, 3, 500, 5000};
    table_init(&t, &cfg, &MFRC522_OPS, ctx, &tx, 0xC0FFEE01u, 0);
    place(3, "04A1B2C3D4E5F6");
    place(7, "DEADBEEF");
    uint64_t start = now_ns;
    for (int i = 0; i < CHIPS * 4; i++)
        table_poll(&t, (uint32_t)(now_ns / 1000000));
    double sweep_ms = (double)(now_ns - start) / 1e6 / 4;
    char all[4096] = "";
    const uint8_t *p;
    size_t n, used = 0;
    while ((n = txq_peek(&tx, &p)) > 0 && used + n < sizeof all) {
        memcpy(all + used, p, n);
        used += n;
        txq_consume(&tx, n);
    }
    all[used] = '\0';
    CHECK(strstr(all, ",3,04A1B2C3D4E5F6,ON*") != NULL, "TAG ON on antenna 3: %s", all);
    CHECK(strstr(all, ",7,DEADBEEF,ON*") != NULL, "TAG ON on antenna 7");
    CHECK(sweep_ms > 5 && sweep_ms < 40, "a sweep of 9 readers, 2 tags: %.2f ms", sweep_ms);
    uint32_t errors = 0;
    for (int i = 0; i < CHIPS; i++)
        errors += t.antennas[i].errors;
    CHECK(errors == 0, "no reader error on a healthy bus (%u)", (unsigned)errors);
}

int main(void)
{
    test_crc_a_matches_iso_14443_3();
    test_init_configures_timer_gain_and_field();
    test_an_empty_antenna_times_out_in_about_a_millisecond();
    test_uids_of_4_7_and_10_bytes_are_read_whole();
    test_a_pile_that_collides_is_read_tag_by_tag();
    test_a_field_cycle_resets_halted_tags();
    test_a_tag_placed_needs_its_startup_time();
    test_a_dead_reader_fails_and_is_soft_reset_when_it_returns();
    test_read_misses_come_at_the_rate_asked();
    test_the_table_core_streams_tags_through_the_real_driver();
    printf("%d checks, %d failures\n", checks, failures);
    return failures ? 1 : 0;
}
