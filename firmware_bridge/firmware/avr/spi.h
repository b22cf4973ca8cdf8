/* The readers' bus on the Mega: pins in board.h; the transfer functions are
 * the driver's port (mfrc522_port.h). */
#ifndef BELOTE_AVR_SPI_H
#define BELOTE_AVR_SPI_H

void spi_init(void);        /* bus up, every chip deselected, readers held in reset */
void spi_readers_run(void); /* release the readers' reset line */

#endif
