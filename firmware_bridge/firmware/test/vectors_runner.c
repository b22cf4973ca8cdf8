/* Host-side runner for the shared protocol vectors (../vectors.txt) and the
 * debounce vectors (../debounce_vectors.txt).
 *
 *   vectors_runner check VECTORS.txt     every vector; prints failures, exits 1 on any
 *   vectors_runner classify              stdin: one escaped line per line; stdout: the
 *                                        verdict per line ("ok TYPE SEQ T", "debug", "bad KIND")
 *   vectors_runner debounce VECTORS.txt  replays scans through debounce_scan()
 *   vectors_runner bench ROUNDS          stdin: frames, one per line; decodes them all
 *                                        ROUNDS times and prints frames per second
 *
 * Built and run by tests/firmware_bridge/test_bridge_firmware_c.py with gcc.
 */
#define _POSIX_C_SOURCE 199309L   /* clock_gettime, for the bench mode */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../scan.h"
#include "../wire.h"

static size_t unescape(const char *in, char *out)
{
    size_t n = 0;
    while (*in) {
        if (in[0] == '\\' && in[1] == '\\') {
            out[n++] = '\\';
            in += 2;
        } else if (in[0] == '\\' && in[1] == 'x') {
            char hex[3] = {in[2], in[3], 0};
            out[n++] = (char)strtol(hex, NULL, 16);
            in += 4;
        } else {
            out[n++] = *in++;
        }
    }
    return n;
}

static void verdict(const char *line, size_t len, char *out, size_t cap)
{
    struct wire_frame f;
    enum wire_result r = wire_decode(line, len, &f);
    if (r == WIRE_OK)
        snprintf(out, cap, "ok\t%s %lu %lu", wire_type_name(f.type), (unsigned long)f.seq, (unsigned long)f.t_ms);
    else if (r == WIRE_DEBUG)
        snprintf(out, cap, "debug");
    else
        snprintf(out, cap, "bad\t%s", wire_result_name(r));
}

static char *chomp(char *s)
{
    size_t n = strlen(s);
    while (n && s[n - 1] == '\n')
        s[--n] = '\0';
    return s;
}

static int check(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        perror(path);
        return 2;
    }
    static char text[4096], line[4096], got[256], want[8192];
    int failures = 0, count = 0;
    while (fgets(text, sizeof text, f)) {
        chomp(text);
        if (!text[0] || text[0] == '#')
            continue;
        char *kind = text, *a = strchr(text, '\t'), *b = NULL;   /* empty fields are kept */
        if (!a)
            continue;
        *a++ = '\0';
        if ((b = strchr(a, '\t')) != NULL)
            *b++ = '\0';
        count++;
        if (strcmp(kind, "crc") == 0) {
            snprintf(got, sizeof got, "%04X", wire_crc16((const uint8_t *)a, strlen(a)));
            if (strcmp(got, b) != 0) {
                printf("FAIL crc(%s) = %s, want %s\n", a, got, b);
                failures++;
            }
        } else if (strcmp(kind, "enc") == 0) {
            /* TYPE,SEQ,T,fields...: build it with the builder */
            char fields[1024];
            strcpy(fields, a);
            char *type = strtok(fields, ",");
            uint32_t seq = (uint32_t)strtoul(strtok(NULL, ","), NULL, 10);
            uint32_t t = strcmp(type, "CMD") == 0 ? 0 : (uint32_t)strtoul(strtok(NULL, ","), NULL, 10);
            struct wire_builder w;
            wire_begin(&w, line, sizeof line, type, (uint16_t)seq, t);
            for (char *field = strtok(NULL, ","); field; field = strtok(NULL, ","))
                wire_add_str(&w, field);
            size_t n = wire_end(&w);
            size_t wn = unescape(b, want);
            want[wn++] = '\n';
            if (n != wn || memcmp(line, want, n) != 0) {
                printf("FAIL enc %s -> %.*s", a, (int)n, line);
                failures++;
            }
        } else {
            size_t n = unescape(a, line);
            verdict(line, n, got, sizeof got);
            snprintf(want, sizeof want, "%s%s%s", kind, b ? "\t" : "", b ? b : "");
            if (strcmp(got, want) != 0) {
                printf("FAIL %s: got '%s', want '%s'\n", a, got, want);
                failures++;
            }
        }
    }
    fclose(f);
    printf("%d vectors, %d failures\n", count, failures);
    return failures ? 1 : 0;
}

static int classify(void)
{
    static char text[8192], line[8192], got[256];
    while (fgets(text, sizeof text, stdin)) {
        size_t n = unescape(chomp(text), line);
        verdict(line, n, got, sizeof got);
        puts(got);
    }
    return 0;
}

/* debounce vectors: "config ON OFF", then "scan ANT uid uid ... -> +uid -uid ..." */
static int debounce(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        perror(path);
        return 2;
    }
    static struct antenna ants[16];
    static char text[2048];
    int on = 2, off = 3, failures = 0, count = 0;
    while (fgets(text, sizeof text, f)) {
        chomp(text);
        if (!text[0] || text[0] == '#')
            continue;
        if (strncmp(text, "config", 6) == 0) {
            sscanf(text + 6, "%d %d", &on, &off);
            memset(ants, 0, sizeof ants);
            continue;
        }
        char *arrow = strstr(text, "->");
        *arrow = '\0';
        char *expect = arrow + 2;
        uid_hex reads[32];
        int n = 0, ant;
        char *tok = strtok(text, " ");   /* "scan" */
        ant = atoi(strtok(NULL, " "));
        for (tok = strtok(NULL, " "); tok; tok = strtok(NULL, " "))
            strcpy(reads[n++], tok);
        struct edge edges[32];
        int e = debounce_scan(&ants[ant], reads, n, on, off, edges, 32);
        char got[1024] = "";
        for (int i = 0; i < e; i++) {
            strcat(got, edges[i].on ? " +" : " -");
            strcat(got, edges[i].uid);
        }
        while (*expect == ' ')
            expect++;
        count++;
        if (strcmp(got[0] ? got + 1 : got, expect) != 0) {
            printf("FAIL line %d: got '%s', want '%s'\n", count, got, expect);
            failures++;
        }
    }
    fclose(f);
    printf("%d scans, %d failures\n", count, failures);
    return failures ? 1 : 0;
}

static int bench(int rounds)
{
    static char lines[65536][WIRE_MAX_LINE + 2];
    static size_t lens[65536];
    int n = 0;
    while (n < 65536 && fgets(lines[n], sizeof lines[n], stdin))
        lens[n] = strlen(chomp(lines[n])), n++;
    struct timespec t0, t1;
    struct wire_frame f;
    long ok = 0;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);   /* CPU time: the machine may be shared */
    for (int r = 0; r < rounds; r++)
        for (int i = 0; i < n; i++)
            ok += wire_decode(lines[i], lens[i], &f) == WIRE_OK;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
    double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    printf("%.0f frames/s (%ld decoded)\n", (double)n * rounds / s, ok);
    return ok == (long)n * rounds ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "bench") == 0)
        return bench(atoi(argv[2]));
    if (argc == 3 && strcmp(argv[1], "check") == 0)
        return check(argv[2]);
    if (argc == 2 && strcmp(argv[1], "classify") == 0)
        return classify();
    if (argc == 3 && strcmp(argv[1], "debounce") == 0)
        return debounce(argv[2]);
    fprintf(stderr, "usage: %s check VECTORS | classify | debounce VECTORS\n", argv[0]);
    return 2;
}
