/* What a board gives the MFRC522 driver: its SPI bus, one chip select per
 * reader, and a way to wait. Bound at link time (no function pointers): the
 * AVR board implements these in avr/spi.c and avr/clock.c; the host tests
 * implement them over the simulator's register model (test/test_mfrc522.c).
 * SPI mode 0, MSB first, at most 10 MHz (datasheet 8.1.2). */
#ifndef BELOTE_MFRC522_PORT_H
#define BELOTE_MFRC522_PORT_H

#include <stdint.h>

void port_select(uint8_t chip);     /* NSS low: a transaction starts */
void port_deselect(uint8_t chip);   /* NSS high: it ends */
uint8_t port_transfer(uint8_t out); /* one byte out on MOSI, the byte clocked in on MISO */
void port_pause_us(uint16_t us);    /* wait at least us; the board may idle the CPU meanwhile */

#endif
