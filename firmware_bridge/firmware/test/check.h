/* The host C tests' one assertion: counts checks and failures, prints each
 * failure with its line, and never stops the run (main prints the totals). */
#ifndef BELOTE_TEST_CHECK_H
#define BELOTE_TEST_CHECK_H

#include <stdio.h>

static int failures, checks;
#define CHECK(cond, ...)                                                   \
    do {                                                                   \
        checks++;                                                          \
        if (!(cond)) {                                                     \
            failures++;                                                    \
            printf("FAIL %s:%d: ", __FILE__, __LINE__);                    \
            printf(__VA_ARGS__);                                           \
            printf("\n");                                                  \
        }                                                                  \
    } while (0)

#endif
