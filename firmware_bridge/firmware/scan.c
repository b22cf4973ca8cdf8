/* Scanning and debouncing; see scan.h. */
#include "scan.h"

#include <string.h>

void uid_to_hex(const uint8_t *uid, uint8_t len, char *out)
{
    static const char HEX[] = "0123456789ABCDEF";
    if (len > UID_MAX_BYTES)
        len = UID_MAX_BYTES;
    for (uint8_t i = 0; i < len; i++) {
        out[2 * i] = HEX[uid[i] >> 4];
        out[2 * i + 1] = HEX[uid[i] & 0xF];
    }
    out[2 * len] = '\0';
}

static int find(const struct antenna *a, const char *uid)
{
    for (int i = 0; i < a->count; i++)
        if (strcmp(a->tracks[i].uid, uid) == 0)
            return i;
    return -1;
}

static int was_read(uid_hex *reads, int n, const char *uid)
{
    for (int i = 0; i < n; i++)
        if (strcmp(reads[i], uid) == 0)
            return 1;
    return 0;
}

static void drop_track(struct antenna *a, int i)
{
    memmove(&a->tracks[i], &a->tracks[i + 1], (size_t)(a->count - i - 1) * sizeof a->tracks[0]);
    a->count--;
}

static void add_edge(struct edge *edges, int *n, int max, const char *uid, int on)
{
    if (*n >= max)
        return;
    strcpy(edges[*n].uid, uid);
    edges[*n].on = (uint8_t)on;
    (*n)++;
}

int debounce_scan(struct antenna *a, uid_hex *reads, int n, int on_scans, int off_scans,
                  struct edge *edges, int max_edges)
{
    int out = 0;
    /* first the misses, in first-seen order, as debounce.py does */
    for (int i = 0; i < a->count;) {
        struct track *t = &a->tracks[i];
        if (was_read(reads, n, t->uid)) {
            i++;
            continue;
        }
        t->hits = 0;
        if (t->misses < 255)
            t->misses++;
        if (!t->present) {
            drop_track(a, i);            /* a candidate that did not last */
        } else if (t->misses >= off_scans) {
            add_edge(edges, &out, max_edges, t->uid, 0);
            drop_track(a, i);
        } else {
            i++;
        }
    }
    /* then the reads, in read order, each once */
    for (int r = 0; r < n; r++) {
        if (was_read(reads, r, reads[r]))
            continue;
        int i = find(a, reads[r]);
        if (i < 0) {
            if (a->count >= TAGS_PER_ANTENNA)
                continue;                /* beyond what we track: best-effort */
            i = a->count++;
            memset(&a->tracks[i], 0, sizeof a->tracks[i]);
            strcpy(a->tracks[i].uid, reads[r]);
        }
        struct track *t = &a->tracks[i];
        if (t->hits < 255)
            t->hits++;
        t->misses = 0;
        if (!t->present && t->hits >= on_scans) {
            t->present = 1;
            add_edge(edges, &out, max_edges, t->uid, 1);
        }
    }
    return out;
}

int antenna_present(const struct antenna *a, const char **uids, int max)
{
    int n = 0;
    for (int i = 0; i < a->count && n < max; i++)
        if (a->tracks[i].present)
            uids[n++] = a->tracks[i].uid;
    return n;
}

static int failed(struct antenna *a, const struct reader_ops *ops, void *ctx)
{
    a->errors++;
    if (++a->consecutive_errors >= REINIT_AFTER_ERRORS) {
        a->consecutive_errors = 0;
        a->reinits++;
        a->field_off = 0;                /* init switches the field on */
        ops->init(ctx);
    }
    return -1;
}

int scan_antenna(struct antenna *a, const struct reader_ops *ops, void *ctx, uid_hex *reads)
{
    int reset = a->field_off;            /* every tag here is IDLE again: REQA wakes them all */
    if (reset) {
        if (ops->field(ctx, 1) < 0)
            return failed(a, ops, ctx);
        a->field_off = 0;
    }
    int n = 0, crowded = 0;
    while (n < READS_PER_SCAN) {
        int answered = n == 0 && !reset ? ops->wupa(ctx) : ops->reqa(ctx);
        if (answered < 0)
            return failed(a, ops, ctx);
        if (answered == 0)
            break;
        uint8_t uid[UID_MAX_BYTES], len = 0;
        int selected = ops->select(ctx, uid, &len);
        if (selected < 0 || (selected > 0 && (len < 4 || len > UID_MAX_BYTES)))
            return failed(a, ops, ctx);
        if (selected == 0)
            break;                       /* gone, or a garbled answer: the rest next scan */
        crowded |= selected == 2;
        uid_to_hex(uid, len, reads[n++]);
        if (ops->halt(ctx) < 0)
            return failed(a, ops, ctx);
    }
    if (n > 1 || crowded) {              /* a pile: reset it before its next scan */
        if (ops->field(ctx, 0) < 0)
            return failed(a, ops, ctx);
        a->field_off = 1;
    }
    a->consecutive_errors = 0;
    return n;
}
