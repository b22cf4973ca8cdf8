/* See clock.h. port_pause_us (mfrc522_port.h) lives here: the driver waits
 * for the reader in short pauses, and sleeping through them (idle mode: the
 * timers, the SPI and the USART keep running) costs nothing on the board and
 * lets the simulator skip the idle cycles. */
#include "clock.h"

#include <avr/interrupt.h>
#include <avr/io.h>
#include <avr/sleep.h>
#include <util/atomic.h>

#include "../mfrc522_port.h"

#define TICKS_PER_MS 2000u   /* 16 MHz / 8 */

static volatile uint32_t millis;

ISR(TIMER1_COMPA_vect) { millis++; }

ISR(TIMER1_COMPB_vect) { TIMSK1 &= (uint8_t)~_BV(OCIE1B); }   /* a pause's alarm: it only wakes the CPU */

void clock_init(void)
{
    TCCR1A = 0;
    TCCR1B = _BV(WGM12) | _BV(CS11);   /* CTC on OCR1A, clock / 8 */
    OCR1A = TICKS_PER_MS - 1;
    TIMSK1 = _BV(OCIE1A);
    set_sleep_mode(SLEEP_MODE_IDLE);
}

uint32_t clock_millis(void)
{
    uint32_t ms;
    ATOMIC_BLOCK(ATOMIC_RESTORESTATE) { ms = millis; }
    return ms;
}

uint32_t clock_micros(void)
{
    uint32_t ms;
    uint16_t ticks;
    ATOMIC_BLOCK(ATOMIC_RESTORESTATE)
    {
        ms = millis;
        ticks = TCNT1;
        if ((TIFR1 & _BV(OCF1A)) && ticks < TICKS_PER_MS / 2)
            ms++;   /* it wrapped, and its interrupt waits for us */
    }
    return ms * 1000u + ticks / 2u;
}

void port_pause_us(uint16_t us)
{
    uint32_t end = clock_micros() + us;
    for (;;) {
        uint32_t now = clock_micros();
        if ((int32_t)(now - end) >= 0)
            return;
        uint32_t left = end - now;
        cli();
        if (left < 1000u) {   /* within this millisecond's wrap: an alarm on compare B */
            uint16_t at = (uint16_t)(TCNT1 + 2u * left);
            OCR1B = at >= TICKS_PER_MS ? at - TICKS_PER_MS : at;
            TIFR1 = _BV(OCF1B);
            TIMSK1 |= _BV(OCIE1B);
        }
        sleep_enable();
        sei();
        sleep_cpu();          /* the instruction after sei runs first: no wake-up is missed */
        sleep_disable();
    }
}
