/* Time on the board: milliseconds since boot (the wire's T_MS), microseconds
 * for the driver's waits, and pauses that idle the CPU until they end. Timer1
 * ticks at 2 MHz and wraps every millisecond; its compare B wakes a pause. */
#ifndef BELOTE_AVR_CLOCK_H
#define BELOTE_AVR_CLOCK_H

#include <stdint.h>

void clock_init(void);
uint32_t clock_millis(void);
uint32_t clock_micros(void);

#endif
