/* The readers' SPI bus and chip selects: mfrc522_port.h for this board. */
#include <avr/io.h>

#include "../mfrc522_port.h"
#include "board.h"
#include "spi.h"

void spi_init(void)
{
    PORTA = 0xFF;                       /* every reader deselected before any pin drives */
    DDRA = 0xFF;                        /* antennas 0-7: D22-D29 */
    PORTC |= _BV(PC7);
    DDRC |= _BV(PC7);                   /* antenna 8: D30 */
    PORTB |= _BV(PB0);
    DDRB |= _BV(PB0) | _BV(PB1) | _BV(PB2);   /* SS (must be an output for master mode), SCK, MOSI */
    DDRL |= _BV(PL0);                   /* the readers' reset: pulse it low, then keep it high */
    PORTL &= (uint8_t)~_BV(PL0);
    SPCR = _BV(SPE) | _BV(MSTR);        /* master, mode 0, MSB first, 16 MHz / 4 = 4 MHz: */
    SPSR = 0;                           /* safe on a 30 cm ribbon through level shifters */
}

void spi_readers_run(void) { PORTL |= _BV(PL0); }

void port_select(uint8_t chip)
{
    if (chip < 8)
        PORTA &= (uint8_t)~(1u << chip);
    else
        PORTC &= (uint8_t)~_BV(PC7);
}

void port_deselect(uint8_t chip)
{
    if (chip < 8)
        PORTA |= (uint8_t)(1u << chip);
    else
        PORTC |= _BV(PC7);
}

uint8_t port_transfer(uint8_t out)
{
    SPDR = out;
    while (!(SPSR & _BV(SPIF)))
        ;
    return SPDR;
}
