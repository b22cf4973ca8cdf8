/* The Mega 2560 board: wires the shared core (table.c: scan, debounce,
 * frames, commands) to this board's clock, serial port and readers, and does
 * what only a board can: say why it booted, pick a boot id, restart on RESET.
 *
 * The loop never blocks on the host: frames wait in the core's transmit
 * queue (1 KiB) and go to the serial port as it has room; a frame that does
 * not fit is dropped and counted (HB txdrop), and the host sees the SEQ gap.
 * A watchdog restarts the board if the loop ever stops turning for 2 s. */
#include <avr/eeprom.h>
#include <avr/interrupt.h>
#include <avr/io.h>
#include <avr/wdt.h>

#include "../mfrc522.h"
#include "../mfrc522_port.h"
#include "../mfrc522_regs.h"
#include "../table.h"
#include "board.h"
#include "clock.h"
#include "spi.h"
#include "uart.h"

static struct mfrc522 readers[ANTENNAS];
static void *contexts[ANTENNAS];
static struct txq tx;
static struct table core;
static uint8_t reset_cause __attribute__((section(".noinit")));   /* set before .bss is cleared */

/* The reset flags, read and cleared before anything else (a watchdog reset
 * leaves the watchdog running: it must be stopped at once). */
static void early(void) __attribute__((naked, used, section(".init3")));
static void early(void)
{
    reset_cause = MCUSR;
    MCUSR = 0;
    wdt_disable();
}

/* A new boot id every boot, so the host tells a restart from a glitch: a boot
 * counter kept in EEPROM, spread over 32 bits (odd multiplier: no two equal). */
static uint32_t next_boot_id(void)
{
    uint32_t *const counter = (uint32_t *)0;
    uint32_t boots = eeprom_read_dword(counter) + 1;
    eeprom_update_dword(counter, boots);
    return boots * 2654435761u;
}

static const char *cause_name(uint8_t flags)
{
    if (flags & _BV(WDRF))
        return "watchdog";
    if (flags & _BV(BORF))
        return "brown-out";   /* the supply sagged: see docs/wiring.md, Power */
    if (flags & _BV(EXTRF))
        return "reset-pin";
    return "power-on";
}

/* A debug line before HELLO: it also ends a line the reset may have cut short. */
static void say_boot(void)
{
    struct wire_builder b;
    static char text[64];
    b.buf = text;
    b.cap = sizeof text;
    b.len = 0;
    b.overflow = 0;
    wire_append(&b, "#belote-table " FW_VERSION " mega2560 reset=");
    wire_append(&b, cause_name(reset_cause));
    wire_append(&b, "\n");
    txq_put(&tx, text, b.len);
}

static void pump_serial(void)
{
    const uint8_t *data;
    size_t n;
    while ((n = txq_peek(&tx, &data)) > 0) {
        size_t written = uart_write(data, n);
        txq_consume(&tx, written);
        if (written < n)
            return;   /* the port is full: the scan goes on */
    }
}

static void restart(void)
{
    for (uint16_t ms = 0; ms < 200 && !(txq_used(&tx) == 0 && uart_drained()); ms++) {
        pump_serial();   /* the ACK of RESET leaves first (it takes 3 ms at 115200) */
        port_pause_us(1000);
    }
    wdt_disable();                      /* then a new timeout: 15 ms from now */
    wdt_enable(WDTO_15MS);
    for (;;)
        ;
}

int main(void)
{
    clock_init();
    uart_init();
    spi_init();
    sei();
    port_pause_us(1000);                /* readers held in reset, then released: a hard reset */
    spi_readers_run();
    port_pause_us(1000);
    txq_init(&tx);
    say_boot();
    for (uint8_t a = 0; a < ANTENNAS; a++) {
        readers[a].chip = a;
        readers[a].rx_gain = RX_GAIN_48DB;
        contexts[a] = &readers[a];
    }
    struct table_config cfg = {ANTENNAS, ON_SCANS, OFF_SCANS, HB_MS, SNAP_MS};
    table_init(&core, &cfg, &MFRC522_OPS, contexts, &tx, next_boot_id(), clock_millis());
    wdt_enable(WDTO_2S);
    for (;;) {
        wdt_reset();
        uint8_t buf[32];
        size_t n = uart_read(buf, sizeof buf);
        if (n)
            table_rx(&core, buf, n, clock_millis());
        table_poll(&core, clock_millis());   /* one antenna per turn */
        pump_serial();
        if (core.reset_asked)
            restart();
    }
}
