/* mega2560-sim: the reference board, simulated instruction by instruction.
 *
 *   mega2560-sim --elf firmware.elf [--link PATH] [--control SOCKET] [--script FILE]
 *                [--speed X] [--until MS] [--log FILE] [--seed N] [--report] [--min-free PCT]
 *
 * libsimavr runs the firmware ELF on an ATmega2560 at 16 MHz; board.c wires
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
 * UBRR (sim_fix_uart_timing), and it takes 100 us for any SPI byte (spdr_write):
 * both in board.c. */
#define _GNU_SOURCE
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sim_avr.h>
#include <sim_elf.h>

#include "control.h"
#include "scenario.h"
#include "sim.h"

#define SRAM_START 0x200
#define SRAM_SIZE 8192

/* -- main ----------------------------------------------------------------------------------- */

static void quiet_logger(struct avr_t *avr, const int level, const char *format, va_list ap)
{
    (void)avr;
    if (getenv("MEGA2560_SIM_VERBOSE") && level <= atoi(getenv("MEGA2560_SIM_VERBOSE")))
        vfprintf(stderr, format, ap);
}

static void usage(const char *why)
{
    fprintf(stderr, "mega2560-sim: %s\nusage: mega2560-sim --elf FILE [--link PATH] [--control SOCKET] "
                    "[--script FILE] [--speed X] [--until MS] [--log FILE] [--seed N] [--report] "
                    "[--min-free PCT]\n", why);
    exit(2);
}

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
    avr_init(s.avr);
    avr_load_firmware(s.avr, &fw);
    s.avr->frequency = CPU_HZ;
    for (uint32_t i = 0; i < fw.symbolcount; i++)
        if (strcmp(fw.symbol[i]->symbol, "_end") == 0)
            s.end_of_data = fw.symbol[i]->addr & 0xFFFF;
    s.stack_low = UINT64_MAX;
    sim_wire(&s, seed);
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
        sim_feed_uart(&s);
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
        sim_fix_uart_timing(&s);
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
