/* See txq.h. */
#include "txq.h"

void txq_init(struct txq *q)
{
    q->head = q->tail = 0;
    q->dropped = 0;
}

size_t txq_used(const struct txq *q) { return (size_t)(q->head - q->tail); }

int txq_put(struct txq *q, const char *line, size_t n)
{
    if (n > TXQ_SIZE - txq_used(q)) {
        q->dropped++;
        return 0;
    }
    for (size_t i = 0; i < n; i++)
        q->buf[(q->head + i) & (TXQ_SIZE - 1)] = (uint8_t)line[i];
    q->head += (uint32_t)n;
    return 1;
}

size_t txq_peek(const struct txq *q, const uint8_t **data)
{
    uint32_t start = q->tail & (TXQ_SIZE - 1);
    size_t used = txq_used(q);
    size_t contiguous = TXQ_SIZE - start;
    *data = q->buf + start;
    return used < contiguous ? used : contiguous;
}

void txq_consume(struct txq *q, size_t n)
{
    if (n > txq_used(q))
        n = txq_used(q);
    q->tail += (uint32_t)n;
}
