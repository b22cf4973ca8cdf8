/* Stack measurement: before the C runtime starts, every byte of RAM between
 * the end of .bss and the top of the stack is painted with STACK_PAINT. The
 * stack, growing down, overwrites the paint; the lowest byte still painted
 * marks its deepest point. The simulator reads it (sim/board_sim.c, --report)
 * after a busy run: the RAM figure `make firmware` prints is measured. */
#include <stdint.h>

#define STACK_PAINT 0xC5

extern uint8_t _end;      /* the linker's end of .data + .bss */
extern uint8_t __stack;   /* RAMEND */

void stack_paint(void) __attribute__((naked, used, section(".init1")));
void stack_paint(void)
{
    /* No stack yet (it is set in .init2): a loop in registers only. */
    __asm__ volatile(
        "    ldi r30, lo8(_end)\n"
        "    ldi r31, hi8(_end)\n"
        "    ldi r24, %0\n"
        "    ldi r25, hi8(__stack)\n"
        "1:  st Z+, r24\n"
        "    cpi r30, lo8(__stack)\n"
        "    cpc r31, r25\n"
        "    brlo 1b\n"
        "    breq 1b\n"
        :
        : "i"(STACK_PAINT));
}
