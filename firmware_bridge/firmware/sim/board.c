/* The simulated board's wiring: libsimavr's ATmega2560 with the nine reader
 * models on its SPI bus behind their chip selects and reset line, its UART to
 * the pty link, resets, and the stack measurement. See sim.h. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <avr_ioport.h>
#include <avr_spi.h>
#include <avr_uart.h>
#include <sim_avr.h>

#include "sim.h"

#define STACK_PAINT 0xC5      /* avr/stack_paint.c */

/* -- time -------------------------------------------------------------------- */

uint64_t sim_cycle(const struct sim *s) { return s->cycle_base + s->avr->cycle; }

uint64_t wall_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

uint64_t sim_ns(const struct sim *s) { return (uint64_t)(sim_cycle(s) * NS_PER_CYCLE); }

void sim_log(struct sim *s, const char *what, const char *text)
{
    if (s->log)
        fprintf(s->log, "%llu %s %s\n", (unsigned long long)sim_cycle(s), what, text);
}

/* -- the SPI bus, the chip selects, the readers' reset line --------------------- */

/* The SPI master. libsimavr 1.6 takes 100 us for every byte whatever the
 * clock, fifty times the board's 2 us (SCK = 16 MHz / 4); so the data
 * register's write and read handlers are ours: a write clocks the byte
 * through the selected reader and raises SPIF 8 SCK periods later, as the
 * ATmega2560 does (datasheet 21.3). */
#define SPCR_ADDR 0x4C
#define SPSR_ADDR 0x4D
#define SPDR_ADDR 0x4E

static avr_cycle_count_t spi_end(struct avr_t *avr, avr_cycle_count_t when, void *param)
{
    struct sim *s = param;
    (void)when;
    avr->data[SPDR_ADDR] = s->spi_in;
    avr_raise_interrupt(avr, &s->spi->spi);
    return 0;
}

static void spdr_write(struct avr_t *avr, avr_io_addr_t addr, uint8_t mosi, void *param)
{
    struct sim *s = param;
    (void)addr;
    avr_regbit_clear(avr, s->spi->spi.raised);
    uint8_t spcr = avr->data[SPCR_ADDR];
    if (!(spcr & 0x40) || !(spcr & 0x10))   /* SPE, MSTR */
        return;
    uint8_t miso = 0xFF;                     /* pulled up when nobody drives it */
    for (int a = 0; a < ANTENNAS; a++)
        if (!s->cs_level[a])
            miso &= mfrc522_model_spi(&s->readers[a], mosi, sim_ns(s));
    s->spi_in = miso;
    static const unsigned DIVIDER[4] = {4, 16, 64, 128};
    unsigned div = DIVIDER[spcr & 0x03];
    if (avr->data[SPSR_ADDR] & 0x01)         /* SPI2X */
        div /= 2;
    avr_cycle_timer_register(avr, 8 * div, spi_end, s);
}

static uint8_t spdr_read(struct avr_t *avr, avr_io_addr_t addr, void *param)
{
    struct sim *s = param;
    avr_regbit_clear(avr, s->spi->spi.raised);
    return avr->data[addr];
}

static void cs_change(struct sim *s, int chip, int level)
{
    if (s->cs_level[chip] == level)
        return;
    s->cs_level[chip] = (uint8_t)level;
    mfrc522_model_nss(&s->readers[chip], !level, sim_ns(s));
    if (!level) {   /* a reader selected: antennas are scanned in order, a lower one starts a sweep */
        if (chip < s->last_chip) {
            if (!s->sweeps++)
                s->first_sweep_cycle = sim_cycle(s);
            s->last_sweep_cycle = sim_cycle(s);
        }
        s->last_chip = chip;
    }
}

static struct sim *the_sim;   /* for the pin callbacks, which carry the pin as their parameter */

static void porta_pin(struct avr_irq_t *irq, uint32_t level, void *param)
{
    (void)irq;
    cs_change(the_sim, (int)(intptr_t)param, (int)level);
}

static void portc7_pin(struct avr_irq_t *irq, uint32_t level, void *param)
{
    (void)irq;
    (void)param;
    cs_change(the_sim, 8, (int)level);
}

static void reset_line(struct avr_irq_t *irq, uint32_t level, void *param)
{
    struct sim *s = param;
    (void)irq;
    if (s->rst_level == level)
        return;
    s->rst_level = (uint8_t)level;
    for (int a = 0; a < ANTENNAS; a++)
        mfrc522_model_nrstpd(&s->readers[a], (int)level, sim_ns(s));
}

/* -- the UART ------------------------------------------------------------------ */

static void uart_out(struct avr_irq_t *irq, uint32_t byte, void *param)
{
    struct sim *s = param;
    (void)irq;
    if (s->has_link)
        pty_link_from_device(&s->link, (uint8_t)byte);
    if (byte == '\n' || s->line_len == sizeof s->line - 1) {
        s->line[s->line_len] = '\0';
        sim_log(s, "out", s->line);
        s->line_len = 0;
    } else {
        s->line[s->line_len++] = (char)byte;
    }
}

static void uart_xon(struct avr_irq_t *irq, uint32_t v, void *param) { (void)irq; (void)v; ((struct sim *)param)->uart_xoff = 0; }
static void uart_xoff(struct avr_irq_t *irq, uint32_t v, void *param) { (void)irq; (void)v; ((struct sim *)param)->uart_xoff = 1; }

void sim_feed_uart(struct sim *s)
{
    size_t i = 0;
    while (i < s->to_uart_len && !s->uart_xoff)
        avr_raise_irq(avr_io_getirq(s->avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_INPUT), s->to_uart[i++]);
    memmove(s->to_uart, s->to_uart + i, s->to_uart_len - i);
    s->to_uart_len -= i;
}

/* libsimavr 1.6 times a byte when UBRR is written, ignoring a U2X set after
 * it, and charges 11 bit times a byte where 8N1 takes 10: keep it at the
 * UART's real 10 bit times, from UBRR0 and U2X0 as they are now. */
void sim_fix_uart_timing(struct sim *s)
{
    avr_io_t *io = s->avr->io_port;
    for (; io; io = io->next) {
        if (strcmp(io->kind, "uart") != 0 || ((avr_uart_t *)io)->name != '0')
            continue;
        avr_uart_t *u = (avr_uart_t *)io;
        unsigned ubrr = s->avr->data[0xC4] | (unsigned)(s->avr->data[0xC5] << 8);   /* UBRR0L/H */
        unsigned per_bit = (ubrr + 1) * ((s->avr->data[0xC0] & 0x02) ? 8u : 16u);    /* UCSR0A: U2X0 */
        u->cycles_per_byte = per_bit * 10;
    }
}

/* -- resets and the stack ------------------------------------------------------------ */

void sim_measure_stack(struct sim *s)
{
    if (!s->end_of_data)
        return;
    uint32_t low = s->end_of_data;
    while (low <= s->avr->ramend && s->avr->data[low] == STACK_PAINT)
        low++;
    if (low > s->end_of_data && low < s->stack_low)   /* a paint was found: the firmware ran */
        s->stack_low = low;
}

void sim_reset(struct sim *s, int power)
{
    sim_measure_stack(s);
    uint64_t before = s->avr->cycle;
    avr_reset(s->avr);
    if (s->avr->cycle < before)
        s->cycle_base += before - s->avr->cycle;
    s->avr->data[0x54] = power ? 0x01 : 0x02;   /* MCUSR: PORF, or EXTRF */
    if (power)
        for (int a = 0; a < ANTENNAS; a++) {
            mfrc522_model_nrstpd(&s->readers[a], 0, sim_ns(s));
            mfrc522_model_nrstpd(&s->readers[a], 1, sim_ns(s));
        }
    /* The pins float and the readers' pull-ups take them high. They are raised
     * through the pins themselves, so that simavr's idea of each pin and the
     * readers' agree: a reset while the firmware held the readers' reset line
     * low must power them up again, and the firmware's next low must reach them. */
    for (int pin = 0; pin < 8; pin++)
        avr_raise_irq(avr_io_getirq(s->avr, AVR_IOCTL_IOPORT_GETIRQ('A'), pin), 1);
    avr_raise_irq(avr_io_getirq(s->avr, AVR_IOCTL_IOPORT_GETIRQ('C'), 7), 1);
    avr_raise_irq(avr_io_getirq(s->avr, AVR_IOCTL_IOPORT_GETIRQ('L'), 0), 1);
    s->line_len = 0;
    s->uart_xoff = 0;
    s->boots++;
    sim_log(s, "boot", power ? "power-on" : "reset-pin");
}

/* simavr would usleep through every idle stretch; board_sim.c paces time itself */
static void no_sleep(struct avr_t *avr, avr_cycle_count_t how_long) { (void)avr; (void)how_long; }

void sim_wire(struct sim *s, uint64_t seed)
{
    the_sim = s;
    s->avr->sleep = no_sleep;
    avr_t *avr = s->avr;
    for (int a = 0; a < ANTENNAS; a++) {
        mfrc522_model_init(&s->readers[a], seed * 31 + (uint64_t)a + 1);
        s->cs_level[a] = 1;
    }
    s->rst_level = 1;
    s->last_chip = ANTENNAS;
    for (avr_io_t *io = avr->io_port; io; io = io->next)
        if (strcmp(io->kind, "spi") == 0)
            s->spi = (avr_spi_t *)io;
    avr->io[AVR_DATA_TO_IO(SPDR_ADDR)].w.c = spdr_write;
    avr->io[AVR_DATA_TO_IO(SPDR_ADDR)].w.param = s;
    avr->io[AVR_DATA_TO_IO(SPDR_ADDR)].r.c = spdr_read;
    avr->io[AVR_DATA_TO_IO(SPDR_ADDR)].r.param = s;
    for (int pin = 0; pin < 8; pin++)
        avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ('A'), pin), porta_pin,
                                (void *)(intptr_t)pin);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ('C'), 7), portc7_pin, NULL);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ('L'), 0), reset_line, s);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUTPUT), uart_out, s);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUT_XON), uart_xon, s);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUT_XOFF), uart_xoff, s);
    uint32_t flags = 0;   /* no console echo, no usleep when the firmware polls */
    avr_ioctl(avr, AVR_IOCTL_UART_SET_FLAGS('0'), &flags);
}
