/* The simulated reference board: an ATmega2560 running the real firmware ELF
 * on libsimavr, nine register-level MFRC522s on its SPI bus (chip selects and
 * reset wired as in avr/board.h), and its UART on a pseudo-terminal.
 * board_sim.c builds and runs it; scenario.c changes it (tags, faults) from a
 * script or the control socket. */
#ifndef BELOTE_SIM_SIM_H
#define BELOTE_SIM_SIM_H

#include <stdint.h>
#include <stdio.h>

#include "../avr/board.h"
#include "mfrc522_model.h"
#include "pty_link.h"

struct avr_t;
struct avr_spi_t;

#define CPU_HZ 16000000ull
#define NS_PER_CYCLE 62.5

struct sim {
    struct avr_t *avr;
    struct mfrc522_model readers[ANTENNAS];
    struct avr_spi_t *spi;
    uint8_t cs_level[ANTENNAS], rst_level;
    uint8_t spi_in;                     /* what MISO clocks in during the byte on the bus */
    uint64_t cycle_base;                /* cycles before the last reset: simulated time never goes back */
    struct pty_link link;
    int has_link;
    uint8_t to_uart[4096];              /* bytes from the host waiting for the UART */
    size_t to_uart_len;
    int uart_xoff;
    uint64_t silent_until_ns;           /* wall clock: the CPU is frozen until then */
    uint64_t stack_low;                 /* lowest painted byte found, over every boot */
    uint32_t end_of_data;               /* the firmware's _end: where the stack paint begins */
    uint32_t boots, sweeps;
    int last_chip;
    uint64_t first_sweep_cycle, last_sweep_cycle;
    FILE *log;                          /* lines out and commands in, with their cycle (--log) */
    char line[256];                     /* the line the UART is sending, for the log */
    size_t line_len;
};

void sim_wire(struct sim *s, uint64_t seed);   /* readers, pins, UART hooked to a loaded AVR */
uint64_t sim_cycle(const struct sim *s);   /* cycles since the simulator started */
uint64_t sim_ns(const struct sim *s);
uint64_t wall_ns(void);
void sim_feed_uart(struct sim *s);         /* host bytes into the UART, as fast as it takes them */
void sim_fix_uart_timing(struct sim *s);
/* A reset of the AVR: `power` also restarts the readers (USB unplugged and
 * back); otherwise it is the reset pin (button, DTR, the host's RESET is a
 * watchdog reset the firmware does itself). */
void sim_reset(struct sim *s, int power);
void sim_measure_stack(struct sim *s);
void sim_log(struct sim *s, const char *what, const char *text);

#endif
