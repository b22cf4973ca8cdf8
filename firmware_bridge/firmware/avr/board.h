/* The reference board: an Arduino Mega 2560 (ATmega2560, 16 MHz, 8 KiB RAM)
 * with nine MFRC522 readers on its SPI bus, one chip select each, and their
 * reset (NRSTPD) lines joined. Wiring, power and flashing: docs/wiring.md.
 *
 *   SPI       D52 SCK (PB1), D51 MOSI (PB2), D50 MISO (PB3); D53 (PB0, SS) stays an output
 *   selects   antenna 0-7 on D22-D29 (PA0-PA7), antenna 8 on D30 (PC7)
 *   reset     D49 (PL0) to every reader's RST, high = running
 *   serial    USART0 (D0/D1) through the board's USB bridge: /dev/ttyACM0, 115200 8N1
 *
 * This is the board layer's only file of numbers; the avr/ sources hold the code
 * (clock, serial port, SPI, main), the core and the driver are shared with
 * the host tests. The simulator (sim/board_sim.c) reads the same pins. */
#ifndef BELOTE_AVR_BOARD_H
#define BELOTE_AVR_BOARD_H

#define ANTENNAS 9
#define BAUD 115200
#define UART_UBRR 16        /* with U2X: 16 MHz / (8 * 17) = 117,647 baud, 2.1 % fast, as every Arduino at 115200 */

#define HB_MS 500           /* health counters every 0.5 s */
#define SNAP_MS 5000        /* a SNAP every 5 s even unasked */
#define ON_SCANS 2          /* a tag is present after 2 scans that read it */
#define OFF_SCANS 6         /* and gone after 6 that do not: a reader missing a quarter of its reads
                               makes a card flicker once a minute, not every second (bench/firmware.py) */

#endif
