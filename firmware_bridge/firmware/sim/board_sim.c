/* mega2560-sim: the reference board, simulated instruction by instruction.
 *
 *   mega2560-sim --elf firmware.elf [--link PATH] [--control SOCKET] [--script FILE]
 *                [--speed X] [--until MS] [--log FILE] [--seed N] [--report] [--min-free PCT]
 *
 * libsimavr runs the firmware ELF on an ATmega2560 at 16 MHz. This file wires
 * the board around it as avr/board.h says: nine MFRC522 models
 * (mfrc522_model.c) on the SPI bus behind their chip selects and shared reset
 * line, and USART0 to a pseudo-terminal reached by the symlink PATH
 * (pty_link.c), which the host opens like /dev/ttyACM0. A script (timed in
 * simulated ms) or the control socket (one command per line, answered at
 * once) places tags and injects faults (scenario.h lists the commands).
 *
 * --speed 1 (the default with --link) keeps simulated time with the wall
 * clock, as the real board would; --speed 0 (the default without) runs as
 * fast as it can, for the benchmark, whose figures are in simulated cycles.
 * --log writes every line the UART sends, and every command applied, with
 * its cycle. --report prints a JSON line at the end: flash, RAM, the stack's
 * measured peak (avr/stack_paint.c), sweeps; --min-free fails the run when
 * less than PCT % of the RAM was left at the stack's deepest.
 *
 * Two corrections to libsimavr 1.6, to keep cycle counts true: its UART
 * charges a parity bit that 8N1 does not send and misses a U2X set after
 * UBRR (fix_uart_timing), and it takes 100 us for any SPI byte (spdr_write). */
#define _GNU_SOURCE
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <avr_ioport.h>
#include <avr_spi.h>
#include <avr_uart.h>
#include <sim_avr.h>
#include <sim_elf.h>

#include "control.h"
#include "scenario.h"
#include "sim.h"

#define STACK_PAINT 0xC5      /* avr/stack_paint.c */
#define SRAM_START 0x200
#define SRAM_SIZE 8192

/* -- time -------------------------------------------------------------------- */

uint64_t sim_cycle(const struct sim *s) { return s->cycle_base + s->avr->cycle; }

static uint64_t wall_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

static uint64_t sim_ns(const struct sim *s) { return (uint64_t)(sim_cycle(s) * NS_PER_CYCLE); }

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

static void feed_uart(struct sim *s)
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
static void fix_uart_timing(struct sim *s)
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
    for (int a = 0; a < ANTENNAS; a++) {
        cs_change(s, a, 1);                       /* pins float: the readers' pull-ups */
        if (power) {
            mfrc522_model_nrstpd(&s->readers[a], 0, sim_ns(s));
            mfrc522_model_nrstpd(&s->readers[a], 1, sim_ns(s));
        }
    }
    s->rst_level = 1;
    s->line_len = 0;
    s->uart_xoff = 0;
    s->boots++;
    sim_log(s, "boot", power ? "power-on" : "reset-pin");
}

/* -- main ----------------------------------------------------------------------------------- */

static void quiet_logger(struct avr_t *avr, const int level, const char *format, va_list ap)
{
    (void)avr;
    if (level <= LOG_ERROR && getenv("MEGA2560_SIM_VERBOSE"))
        vfprintf(stderr, format, ap);
}

static void usage(const char *why)
{
    fprintf(stderr, "mega2560-sim: %s\nusage: mega2560-sim --elf FILE [--link PATH] [--control SOCKET] "
                    "[--script FILE] [--speed X] [--until MS] [--log FILE] [--seed N] [--report] "
                    "[--min-free PCT]\n", why);
    exit(2);
}

static void wire_board(struct sim *s, uint64_t seed)
{
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

static void no_sleep(struct avr_t *avr, avr_cycle_count_t how_long) { (void)avr; (void)how_long; }

static void report(struct sim *s, elf_firmware_t *fw, double wall_s, double min_free, int *status)
{
    sim_measure_stack(s);
    unsigned statics = s->end_of_data - SRAM_START;
    unsigned stack = s->stack_low <= s->avr->ramend ? s->avr->ramend + 1 - (unsigned)s->stack_low : 0;
    unsigned free_bytes = SRAM_SIZE - statics - stack;
    double free_pct = 100.0 * free_bytes / SRAM_SIZE;
    double sim_s = sim_cycle(s) / (double)CPU_HZ;
    double sweep_ms = s->sweeps > 1 ? (s->last_sweep_cycle - s->first_sweep_cycle) * 1000.0 / CPU_HZ / (s->sweeps - 1) : 0;
    printf("{\"flash\": %u, \"flash_total\": 262144, \"ram_static\": %u, \"stack_peak\": %u, \"ram_total\": %u, "
           "\"ram_free\": %u, \"ram_free_pct\": %.1f, \"cycles\": %llu, \"sim_s\": %.3f, \"wall_s\": %.3f, "
           "\"sweeps\": %u, \"sweep_ms\": %.3f, \"boots\": %u, \"lines_dropped\": %llu, \"lines_corrupted\": %llu}\n",
           fw->flashsize, statics, stack, SRAM_SIZE, free_bytes, free_pct, (unsigned long long)sim_cycle(s), sim_s,
           wall_s, s->sweeps, sweep_ms, s->boots, (unsigned long long)s->link.lines_dropped,
           (unsigned long long)s->link.lines_corrupted);
    fprintf(stderr, "mega2560-sim: flash %u of 262144 bytes (%.1f %%); RAM %u static + %u stack at its deepest "
                    "= %u of %u bytes, %.1f %% left\n", fw->flashsize, 100.0 * fw->flashsize / 262144, statics,
            stack, statics + stack, SRAM_SIZE, free_pct);
    if (min_free > 0 && free_pct < min_free) {
        fprintf(stderr, "mega2560-sim: less than %.0f %% of the RAM left: shrink TXQ_SIZE or MAX_ANTENNAS "
                        "(firmware_bridge/firmware/Makefile)\n", min_free);
        *status = 1;
    }
}

int main(int argc, char **argv)
{
    static struct sim s;
    static struct control control = {.listener = -1, .client = -1};
    static struct script script;
    const char *elf = NULL, *link = NULL, *socket_path = NULL, *log_path = NULL;
    double speed = -1, until_ms = 0, min_free = 0;
    unsigned long long seed = 1;
    int want_report = 0;
    static const struct option OPTIONS[] = {
        {"elf", 1, 0, 'e'}, {"link", 1, 0, 'l'}, {"control", 1, 0, 'c'}, {"script", 1, 0, 's'},
        {"speed", 1, 0, 'x'}, {"until", 1, 0, 'u'}, {"log", 1, 0, 'g'}, {"seed", 1, 0, 'r'},
        {"report", 0, 0, 'p'}, {"min-free", 1, 0, 'm'}, {0, 0, 0, 0}};
    for (int o; (o = getopt_long(argc, argv, "", OPTIONS, NULL)) != -1;) {
        switch (o) {
        case 'e': elf = optarg; break;
        case 'l': link = optarg; break;
        case 'c': socket_path = optarg; break;
        case 's':
            script.file = fopen(optarg, "r");
            if (!script.file)
                usage("cannot read the --script file");
            break;
        case 'x': speed = atof(optarg); break;
        case 'u': until_ms = atof(optarg); break;
        case 'g': log_path = optarg; break;
        case 'r': seed = strtoull(optarg, NULL, 10); break;
        case 'p': want_report = 1; break;
        case 'm': min_free = atof(optarg); break;
        default: usage("unknown option");
        }
    }
    if (!elf)
        usage("--elf is required (build it with 'make firmware')");
    if (speed < 0)
        speed = link ? 1.0 : 0.0;
    signal(SIGPIPE, SIG_IGN);
    avr_global_logger_set(quiet_logger);
    static elf_firmware_t fw;
    if (elf_read_firmware(elf, &fw) != 0 || fw.flashsize == 0)
        usage("cannot load the --elf file");
    s.avr = avr_make_mcu_by_name("atmega2560");
    if (!s.avr)
        usage("this libsimavr has no atmega2560");
    the_sim = &s;
    avr_init(s.avr);
    avr_load_firmware(s.avr, &fw);
    s.avr->frequency = CPU_HZ;
    s.avr->sleep = no_sleep;   /* our own pacing below: simavr would usleep through every idle */
    for (uint32_t i = 0; i < fw.symbolcount; i++)
        if (strcmp(fw.symbol[i]->symbol, "_end") == 0)
            s.end_of_data = fw.symbol[i]->addr & 0xFFFF;
    s.stack_low = UINT64_MAX;
    wire_board(&s, seed);
    s.link.master = s.link.slave = -1;
    if (log_path && !(s.log = fopen(log_path, "w")))
        usage("cannot write the --log file");
    if (link) {
        snprintf(s.link.path, sizeof s.link.path, "%s", link);
        if (pty_link_plug(&s.link) < 0)
            usage("cannot open a pseudo-terminal at --link");
        s.has_link = 1;
    }
    if (socket_path && control_open(&control, socket_path) < 0)
        usage("cannot listen on the --control socket");
    s.boots = 1;
    uint64_t wall0 = wall_ns(), paced_wall = wall0, paced_cycle = 0;
    int status = 0;
    for (;;) {
        char error[160];
        const char *due;
        while ((due = script_next(&script, sim_ns(&s) / 1000000ull, error, sizeof error)) != NULL) {
            char reply[600];
            enum scenario_result r = scenario_apply(&s, due, reply, sizeof reply);
            if (r == SCENARIO_ERROR)
                fprintf(stderr, "mega2560-sim: script line %d: %s\n", script.line_no, reply);
            if (r == SCENARIO_END)
                goto done;
        }
        if (error[0]) {
            fprintf(stderr, "mega2560-sim: %s\n", error);
            return 2;
        }
        if (control_poll(&control, &s))
            goto done;
        if (until_ms > 0 && sim_ns(&s) >= until_ms * 1e6)
            goto done;
        uint64_t now = wall_ns();
        if (now < s.silent_until_ns) {   /* a hung firmware: the CPU stands still, host bytes are lost */
            uint8_t lost[256];
            int fired;
            if (s.has_link)
                pty_link_from_host(&s.link, lost, sizeof lost, &fired);
            usleep(1000);
            paced_wall = wall_ns();
            paced_cycle = sim_cycle(&s);
            continue;
        }
        if (s.has_link) {
            int fired = 0;
            size_t room = sizeof s.to_uart - s.to_uart_len;
            s.to_uart_len += pty_link_from_host(&s.link, s.to_uart + s.to_uart_len, room, &fired);
            if (fired)
                sim_reset(&s, 0);
        }
        feed_uart(&s);
        /* run one simulated millisecond, or less if we are ahead of the wall clock */
        uint64_t target = sim_cycle(&s) + CPU_HZ / 1000;
        if (speed > 0) {
            uint64_t allowed = paced_cycle + (uint64_t)((now - paced_wall) * 1e-9 * CPU_HZ * speed);
            if (allowed < target) {
                if (allowed <= sim_cycle(&s)) {
                    struct pollfd fds[2] = {{s.has_link ? s.link.master : -1, POLLIN, 0},
                                            {control.client >= 0 ? control.client : control.listener, POLLIN, 0}};
                    poll(fds, 2, 1);
                    continue;
                }
                target = allowed;
            }
        }
        while (sim_cycle(&s) < target) {
            int state = avr_run(s.avr);
            if (state == cpu_Done || state == cpu_Crashed) {
                fprintf(stderr, "mega2560-sim: the firmware stopped (%s) at cycle %llu\n",
                        state == cpu_Crashed ? "crashed" : "done", (unsigned long long)sim_cycle(&s));
                status = 3;
                goto done;
            }
        }
        fix_uart_timing(&s);
        if (s.has_link)
            pty_link_flush(&s.link);
    }
done:
    if (want_report)
        report(&s, &fw, (wall_ns() - wall0) / 1e9, min_free, &status);
    if (s.log)
        fclose(s.log);
    if (s.has_link)
        pty_link_unplug(&s.link);
    if (socket_path)
        unlink(socket_path);
    return status;
}
