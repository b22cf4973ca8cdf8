/* See uart.h. 8-bit ring indices: reads and writes of them are atomic on the AVR. */
#include "uart.h"

#include <avr/interrupt.h>
#include <avr/io.h>

#include "board.h"

#define TX_RING 128   /* 11 ms of line at 115200 baud: more than one scan step */
#define RX_RING 64    /* a command is at most 30 bytes */

static volatile uint8_t tx_buf[TX_RING], rx_buf[RX_RING];
static volatile uint8_t tx_head, tx_tail, rx_head, rx_tail;
static volatile uint16_t overruns;

void uart_init(void)
{
    UBRR0 = UART_UBRR;
    UCSR0A = _BV(U2X0);
    UCSR0C = _BV(UCSZ01) | _BV(UCSZ00);                 /* 8N1 */
    UCSR0B = _BV(RXEN0) | _BV(TXEN0) | _BV(RXCIE0);
}

ISR(USART0_RX_vect)
{
    uint8_t byte = UDR0;
    uint8_t next = (uint8_t)((rx_head + 1) % RX_RING);
    if (next == rx_tail) {
        overruns++;
        return;
    }
    rx_buf[rx_head] = byte;
    rx_head = next;
}

ISR(USART0_UDRE_vect)
{
    if (tx_tail == tx_head) {
        UCSR0B &= (uint8_t)~_BV(UDRIE0);                /* nothing left: stop asking */
        return;
    }
    UDR0 = tx_buf[tx_tail];
    tx_tail = (uint8_t)((tx_tail + 1) % TX_RING);
}

size_t uart_write(const uint8_t *data, size_t n)
{
    size_t done = 0;
    while (done < n) {
        uint8_t next = (uint8_t)((tx_head + 1) % TX_RING);
        if (next == tx_tail)
            break;
        tx_buf[tx_head] = data[done++];
        tx_head = next;
    }
    if (done) {
        UCSR0A = _BV(TXC0) | _BV(U2X0);                 /* clear "transmit complete" */
        UCSR0B |= _BV(UDRIE0);
    }
    return done;
}

size_t uart_read(uint8_t *data, size_t max)
{
    size_t n = 0;
    while (n < max && rx_tail != rx_head) {
        data[n++] = rx_buf[rx_tail];
        rx_tail = (uint8_t)((rx_tail + 1) % RX_RING);
    }
    return n;
}

int uart_drained(void) { return tx_tail == tx_head && (UCSR0A & _BV(TXC0)); }

uint16_t uart_rx_overruns(void) { return overruns; }
