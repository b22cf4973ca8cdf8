/* The double-dummy search of referee/solver.py, in C for speed.
 *
 * The same alpha-beta, move for move: a transposition table at trick
 * boundaries (key: cards still out, leader, which sides have won a trick;
 * value: bounds on the points still to come and the best lead), equivalent
 * cards pruned (same points, no other live card between them), moves tried
 * in the same order. Python (referee/solver_c.py) passes every table the
 * search needs (which card beats which, points, the trump suit, the options'
 * codes), so the rules themselves live in Python; the legal-card function
 * below is referee.play.follower_legal, line for line, and the tests hold
 * the two engines to each other on random positions.
 *
 * Pure C99, no Python: built into a shared library by `make install` and
 * loaded with cffi (ABI mode).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define INF (1 << 20)

typedef struct {
    uint32_t beats[32];     /* cards that take the trick from each card */
    int points[32];
    uint32_t ruff;          /* trump suit mask (0 in sa/ta) */
    uint32_t must_beat;     /* suits whose lead obliges beating the best card */
    int partner_free;       /* 1: no need to beat the partner's card */
    int rule;               /* undertrump: 0 discard, 1 must, 2 always */
    int step;               /* 3 counter-clockwise, 1 clockwise */
    int dix;                /* dix de der */
    int bonus;              /* what a capot adds on top of all card points */
    int order[32];          /* strength within the suit (higher is stronger) */
    int ladder[4][8];       /* the cards of each suit, weakest first */
} dd_rules;

typedef struct {
    uint64_t key;           /* out | leader << 32 | won << 34, plus 1 << 40 when used */
    int16_t low, high;      /* bounds on the points still to come */
    int8_t best;            /* best lead, -1 if none */
    uint8_t left;           /* tricks left: the replacement keeps bigger subtrees */
    uint16_t gen;
} tt_entry;

typedef struct {
    dd_rules r;
    tt_entry *tt;
    uint64_t mask;          /* buckets - 1; two entries per bucket */
    uint16_t gen;
    uint64_t nodes;
} dd_core;

static const uint32_t SUIT[4] = {0xFFu, 0xFF00u, 0xFF0000u, 0xFF000000u};

static int bitcount(uint32_t x) { return __builtin_popcount(x); }
static int topcard(uint32_t x) { return 31 - __builtin_clz(x); }

dd_core *dd_new(const dd_rules *rules, int tt_bits)
{
    dd_core *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->r = *rules;
    c->mask = ((uint64_t)1 << tt_bits) - 1;
    c->tt = calloc((size_t)2 << tt_bits, sizeof(tt_entry));
    if (!c->tt) { free(c); return NULL; }
    c->gen = 1;
    return c;
}

void dd_free(dd_core *c)
{
    if (c) { free(c->tt); free(c); }
}

/* Forget everything learnt (another deal): a new generation, O(1). */
void dd_clear(dd_core *c)
{
    if (++c->gen == 0) {
        memset(c->tt, 0, (size_t)2 * (c->mask + 1) * sizeof(tt_entry));
        c->gen = 1;
    }
}

uint64_t dd_nodes(const dd_core *c) { return c->nodes; }

/* referee.play.follower_legal */
static uint32_t follower_legal(const dd_rules *r, uint32_t hand, int lead, int win, int n, int winpos)
{
    uint32_t follow = hand & SUIT[lead >> 3];
    if (follow) {
        if ((r->must_beat >> lead & 1) && !(r->partner_free && winpos == n - 2)) {
            uint32_t over = follow & r->beats[win];
            return over ? over : follow;
        }
        return follow;
    }
    if (!(hand & r->ruff)) return hand;
    uint32_t cut = hand & r->ruff;
    int partner_wins = n >= 2 && winpos == n - 2;
    if (r->ruff >> win & 1) {
        uint32_t over = cut & r->beats[win];
        if (partner_wins)
            return r->rule != 2 ? hand : (over ? (over | (hand & ~r->ruff)) : cut);
        if (over) return over;
        return r->rule == 0 ? hand : cut;
    }
    return partner_wins ? hand : cut;
}

static int end_value(const dd_rules *r, int ns, int won)
{
    if (won == 1) return ns + r->bonus;
    if (won == 2) return -r->bonus;
    return ns;
}

/* The legal cards worth trying, best first (Solver._moves): returns how many. */
static int moves(const dd_rules *r, uint32_t legal, uint32_t others, int leading, int win, int partner_wins,
                 int first, int out[8])
{
    int keys[8], m = 0;
    for (int suit = 0; suit < 4; suit++) {
        if (!(legal & SUIT[suit])) continue;
        int prev = -1, gap = 0, top = 1;
        for (int i = 7; i >= 0; i--) {
            int card = r->ladder[suit][i];
            uint32_t bit = (uint32_t)1 << card;
            if (legal & bit) {
                if (prev >= 0 && !gap && r->points[prev] == r->points[card]) continue;
                int key;
                if (!leading) {
                    int takes = (r->beats[win] & bit) ? 1 : partner_wins;
                    key = takes ? 200 + r->points[card] : -r->points[card];
                } else {
                    key = top ? 100 + r->points[card] : -r->points[card];
                }
                if (card == first) key = 1000;
                /* insertion sort on (key, order, card) descending, as Python's sort */
                int j = m++;
                while (j > 0 && (keys[j - 1] < key || (keys[j - 1] == key && (r->order[out[j - 1]] < r->order[card]
                       || (r->order[out[j - 1]] == r->order[card] && out[j - 1] < card))))) {
                    keys[j] = keys[j - 1];
                    out[j] = out[j - 1];
                    j--;
                }
                keys[j] = key;
                out[j] = card;
                prev = card;
                gap = 0;
            } else if (others & bit) {
                gap = 1;
                top = 0;
            }
        }
    }
    return m;
}

static int lead_node(dd_core *c, uint32_t hands[4], int leader, int ns, int won, int left, int alpha, int beta);

static int follow_node(dd_core *c, uint32_t hands[4], int trick[4], int n, int win, int winpos, int points,
                       int leader, int ns, int won, int left, int alpha, int beta)
{
    const dd_rules *r = &c->r;
    int seat = (leader + n * r->step) & 3;
    uint32_t hand = hands[seat];
    uint32_t legal = follower_legal(r, hand, trick[0], win, n, winpos);
    int partner_wins = n >= 2 && winpos == n - 2;
    uint32_t others = 0;
    for (int s = 0; s < 4; s++)
        if (s != seat) others |= hands[s];
    for (int i = 0; i < n; i++) others |= (uint32_t)1 << trick[i];
    int list[8];
    int m = moves(r, legal, others, 0, win, partner_wins, -1, list);
    int maximize = !(seat & 1);
    int v = maximize ? -INF : INF;
    c->nodes++;
    for (int k = 0; k < m; k++) {
        int card = list[k];
        uint32_t bit = (uint32_t)1 << card;
        int nwin = win, nwinpos = winpos, x;
        hands[seat] = hand & ~bit;
        if (r->beats[win] & bit) { nwin = card; nwinpos = n; }
        int pts = points + r->points[card];
        if (n == 3) {
            int winner = (leader + nwinpos * r->step) & 3;
            if (left == 1) pts += r->dix;
            if (winner & 1) x = lead_node(c, hands, winner, ns, won | 2, left - 1, alpha, beta);
            else x = lead_node(c, hands, winner, ns + pts, won | 1, left - 1, alpha, beta);
        } else {
            trick[n] = card;
            x = follow_node(c, hands, trick, n + 1, nwin, nwinpos, pts, leader, ns, won, left, alpha, beta);
        }
        hands[seat] = hand;
        if (maximize) {
            if (x > v) { v = x; if (x > alpha) { alpha = x; if (alpha >= beta) break; } }
        } else if (x < v) {
            v = x; if (x < beta) { beta = x; if (alpha >= beta) break; }
        }
    }
    return v;
}

static int last_trick(const dd_rules *r, uint32_t hands[4], int leader, int ns, int won)
{
    int win = topcard(hands[leader]);
    int points = r->points[win], winpos = 0;
    for (int i = 1; i < 4; i++) {
        int card = topcard(hands[(leader + i * r->step) & 3]);
        points += r->points[card];
        if (r->beats[win] >> card & 1) { win = card; winpos = i; }
    }
    int winner = (leader + winpos * r->step) & 3;
    if (winner & 1) return end_value(r, ns, won | 2);
    return end_value(r, ns + points + r->dix, won | 1);
}

static tt_entry *tt_find(dd_core *c, uint64_t key)
{
    uint64_t h = (key * 0x9E3779B97F4A7C15ull) >> 20;
    tt_entry *b = &c->tt[2 * (h & c->mask)];
    key |= (uint64_t)1 << 40;
    if (b[0].key == key && b[0].gen == c->gen) return &b[0];
    if (b[1].key == key && b[1].gen == c->gen) return &b[1];
    return NULL;
}

static void tt_store(dd_core *c, uint64_t key, int low, int high, int best, int left)
{
    uint64_t h = (key * 0x9E3779B97F4A7C15ull) >> 20;
    tt_entry *b = &c->tt[2 * (h & c->mask)];
    key |= (uint64_t)1 << 40;
    tt_entry *e;
    if (b[0].key == key && b[0].gen == c->gen) e = &b[0];
    else if (b[1].key == key && b[1].gen == c->gen) e = &b[1];
    else if (b[0].gen != c->gen) e = &b[0];
    else if (b[1].gen != c->gen) e = &b[1];
    else e = (b[0].left <= b[1].left) ? &b[0] : &b[1];   /* keep the bigger subtree */
    e->key = key;
    e->low = (int16_t)low;
    e->high = (int16_t)high;
    e->best = (int8_t)best;
    e->left = (uint8_t)left;
    e->gen = c->gen;
}

static int lead_node(dd_core *c, uint32_t hands[4], int leader, int ns, int won, int left, int alpha, int beta)
{
    const dd_rules *r = &c->r;
    if (left == 0) return end_value(r, ns, won);
    if (left == 1) return last_trick(r, hands, leader, ns, won);
    uint32_t out = hands[0] | hands[1] | hands[2] | hands[3];
    uint64_t key = out | (uint64_t)leader << 32 | (uint64_t)won << 34;
    int low, high, best;
    tt_entry *e = tt_find(c, key);
    if (e) {
        low = e->low; high = e->high; best = e->best;
    } else {
        int rest = r->dix;
        for (uint32_t m = out; m; m &= m - 1) rest += r->points[__builtin_ctz(m)];
        low = (won & 1) ? 0 : -r->bonus;
        high = rest + ((won & 2) ? 0 : r->bonus);
        best = -1;
    }
    if (low + ns >= beta) return low + ns;
    if (high + ns <= alpha) return high + ns;
    int a = alpha > low + ns ? alpha : low + ns;
    int b = beta < high + ns ? beta : high + ns;
    if (a >= b) return a;
    uint32_t hand = hands[leader];
    int list[8];
    int m = moves(r, hand, out & ~hand, 1, -1, 0, best, list);
    int maximize = !(leader & 1);
    int v = maximize ? -INF : INF, best_card = -1, lo = a, hi = b;
    int trick[4];
    c->nodes++;
    for (int k = 0; k < m; k++) {
        int card = list[k];
        hands[leader] = hand & ~((uint32_t)1 << card);
        trick[0] = card;
        int x = follow_node(c, hands, trick, 1, card, 0, r->points[card], leader, ns, won, left, lo, hi);
        hands[leader] = hand;
        if (maximize) {
            if (x > v) { v = x; best_card = card; if (x > lo) { lo = x; if (lo >= hi) break; } }
        } else if (x < v) {
            v = x; best_card = card; if (x < hi) { hi = x; if (lo >= hi) break; }
        }
    }
    int f = v - ns;
    if (v <= a) { if (f < high) high = f; }
    else if (v >= b) { if (f > low) low = f; }
    else low = high = f;
    tt_store(c, key, low, high, best_card >= 0 ? best_card : best, left);
    return v;
}

/* The search's value w of a position (Solver.value): fail-soft, exact inside (alpha, beta).
 * trick: the n cards on the table, leader first; ns: NS's points in finished tricks;
 * won: bit 0 NS has won a trick, bit 1 EW has. */
int dd_value(dd_core *c, const uint32_t hands_in[4], const int *trick_in, int n, int leader, int ns, int won,
             int alpha, int beta)
{
    const dd_rules *r = &c->r;
    uint32_t hands[4];
    memcpy(hands, hands_in, sizeof hands);
    if (n == 0) {
        int left = 0;
        for (int s = 0; s < 4; s++) if (bitcount(hands[s]) > left) left = bitcount(hands[s]);
        return lead_node(c, hands, leader, ns, won, left, alpha, beta);
    }
    int trick[4], winpos = 0, points = 0;
    for (int i = 0; i < n; i++) {
        trick[i] = trick_in[i];
        points += r->points[trick[i]];
        if (i && (r->beats[trick[winpos]] >> trick[i] & 1)) winpos = i;
    }
    int left = bitcount(hands[leader]) + 1;
    return follow_node(c, hands, trick, n, trick[winpos], winpos, points, leader, ns, won, left, alpha, beta);
}
