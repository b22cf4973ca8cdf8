/* See scenario.h. */
#define _GNU_SOURCE
#include "scenario.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "../avr/board.h"

static int parse_hex(const char *text, uint8_t *out, size_t max)
{
    size_t n = strlen(text);
    if (n == 0 || n % 2 || n / 2 > max)
        return -1;
    for (size_t i = 0; i < n / 2; i++) {
        if (!isxdigit((unsigned char)text[2 * i]) || !isxdigit((unsigned char)text[2 * i + 1]))
            return -1;
        sscanf(text + 2 * i, "%2hhx", &out[i]);
    }
    return (int)(n / 2);
}

static int parse_antenna(const char *text)
{
    char *end;
    long a = strtol(text, &end, 10);
    return *text && !*end && a >= 0 && a < ANTENNAS ? (int)a : -1;
}

/* A tag leaves whatever field it was in. */
static int lift(struct sim *s, const uint8_t *uid, uint8_t len)
{
    int found = 0;
    for (int a = 0; a < ANTENNAS; a++)
        found |= mfrc522_model_take(&s->readers[a], uid, len);
    return found;
}

#define FAIL(...) (snprintf(reply, cap, "error: " __VA_ARGS__), SCENARIO_ERROR)

enum scenario_result scenario_apply(struct sim *s, const char *command, char *reply, size_t cap)
{
    char verb[16] = "", arg1[512] = "", arg2[64] = "";
    int n = sscanf(command, "%15s %511s %63s", verb, arg1, arg2);
    snprintf(reply, cap, "ok");
    if (n < 1)
        return SCENARIO_OK;
    uint8_t uid[10];
    if (strcmp(verb, "put") == 0) {
        int a = n == 3 ? parse_antenna(arg1) : -1;
        int len = a >= 0 ? parse_hex(arg2, uid, sizeof uid) : -1;
        if (a < 0 || (len != 4 && len != 7 && len != 10))
            return FAIL("put <antenna 0-%d> <uid of 4, 7 or 10 bytes in hex>", ANTENNAS - 1);
        lift(s, uid, (uint8_t)len);
        if (!mfrc522_model_place(&s->readers[a], uid, (uint8_t)len, sim_ns(s)))
            return FAIL("antenna %d holds %d tags already", a, MODEL_TAGS);
    } else if (strcmp(verb, "lift") == 0) {
        int len = parse_hex(arg1, uid, sizeof uid);
        if (len < 4)
            return FAIL("lift <uid in hex>");
        if (!lift(s, uid, (uint8_t)len))
            snprintf(reply, cap, "ok (not on the table)");
    } else if (strcmp(verb, "miss") == 0) {
        int all = strcmp(arg1, "all") == 0, a = all ? 0 : parse_antenna(arg1);
        double p = atof(arg2);
        if (n != 3 || a < 0 || p < 0 || p > 1)
            return FAIL("miss <antenna|all> <probability 0-1>");
        for (int i = all ? 0 : a; i <= (all ? ANTENNAS - 1 : a); i++)
            s->readers[i].miss_rate = p;
    } else if (strcmp(verb, "dead") == 0) {
        int a = n == 3 ? parse_antenna(arg1) : -1;
        if (a < 0)
            return FAIL("dead <antenna> <0|1>");
        s->readers[a].dead = atoi(arg2) != 0;
    } else if (strcmp(verb, "reset") == 0) {
        sim_reset(s, 0);
    } else if (strcmp(verb, "unplug") == 0 || strcmp(verb, "replug") == 0) {
        if (!s->has_link)
            return FAIL("no port to unplug: start with --link PATH");
        if (verb[0] == 'u') {
            pty_link_unplug(&s->link);
        } else if (s->link.master < 0) {
            if (pty_link_plug(&s->link) < 0)
                return FAIL("cannot open a pseudo-terminal");
            sim_reset(s, 1);
        }
    } else if (strcmp(verb, "drop") == 0 || strcmp(verb, "corrupt") == 0) {
        int k = atoi(arg1);
        if (n != 2 || k < 1)
            return FAIL("%s <lines>", verb);
        *(verb[0] == 'd' ? &s->link.drop : &s->link.corrupt) += k;
    } else if (strcmp(verb, "silence") == 0) {
        long ms = atol(arg1);
        if (n != 2 || ms <= 0)
            return FAIL("silence <ms>");
        s->silent_until_ns = wall_ns() + (uint64_t)ms * 1000000ull;
    } else if (strcmp(verb, "stale") == 0) {
        int len = parse_hex(arg1, s->link.stale, sizeof s->link.stale);
        if (len < 0)
            return FAIL("stale <bytes in hex, at most %zu>", sizeof s->link.stale);
        s->link.stale_len = (size_t)len;
        s->link.stale_armed = 1;
    } else if (strcmp(verb, "send") == 0) {
        const char *text = command + strspn(command, " \t") + 4;
        text += strspn(text, " \t");
        size_t len = strlen(text);
        if (s->to_uart_len + len + 1 > sizeof s->to_uart)
            return FAIL("the board's input is %zu bytes behind", s->to_uart_len);
        memcpy(s->to_uart + s->to_uart_len, text, len);
        s->to_uart_len += len;
        s->to_uart[s->to_uart_len++] = '\n';
    } else if (strcmp(verb, "sync") == 0) {
        snprintf(reply, cap, "ok %llu", (unsigned long long)(sim_ns(s) / 1000000ull));
    } else if (strcmp(verb, "end") == 0 || strcmp(verb, "quit") == 0) {
        return SCENARIO_END;
    } else {
        return FAIL("unknown command '%s': put, lift, miss, dead, reset, unplug, replug, drop, corrupt, "
                    "silence, stale, send, sync, end", verb);
    }
    sim_log(s, "cmd", command);
    return SCENARIO_OK;
}

const char *script_next(struct script *sc, uint64_t now_ms, char *error, size_t cap)
{
    error[0] = '\0';
    while (!sc->pending && sc->file) {
        char text[1100];
        if (!fgets(text, sizeof text, sc->file)) {
            fclose(sc->file);
            sc->file = NULL;
            return NULL;
        }
        sc->line_no++;
        char *hash = strchr(text, '#');
        if (hash)
            *hash = '\0';
        text[strcspn(text, "\r\n")] = '\0';
        char *p = text + strspn(text, " \t");
        if (!*p)
            continue;
        char *end;
        unsigned long long at = strtoull(p, &end, 10);
        if (end == p || !isspace((unsigned char)*end)) {
            snprintf(error, cap, "script line %d: start with the time in ms: '<ms> <command>'", sc->line_no);
            return NULL;
        }
        sc->at_ms = at;
        snprintf(sc->command, sizeof sc->command, "%s", end + strspn(end, " \t"));
        sc->pending = 1;
    }
    if (sc->pending && now_ms >= sc->at_ms) {
        sc->pending = 0;
        return sc->command;
    }
    return NULL;
}
