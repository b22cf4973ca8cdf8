/* USART0, the serial port to the host: interrupt-driven both ways, so bytes
 * keep flowing while the CPU waits on a reader. The rings are small; the
 * frames wait in the core's transmit queue (txq.h), which never blocks. */
#ifndef BELOTE_AVR_UART_H
#define BELOTE_AVR_UART_H

#include <stddef.h>
#include <stdint.h>

void uart_init(void);
/* Queue up to n bytes for sending; returns how many fitted. */
size_t uart_write(const uint8_t *data, size_t n);
/* Bytes received since the last call, at most max; returns how many. */
size_t uart_read(uint8_t *data, size_t max);
/* 1 once every queued byte has left the shift register. */
int uart_drained(void);
/* Bytes lost because the receive ring was full (the host sent faster than we read). */
uint16_t uart_rx_overruns(void);

#endif
