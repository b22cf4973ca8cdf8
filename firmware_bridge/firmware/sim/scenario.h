/* What happens to the simulated board, from a script (timed in simulated ms)
 * or the control socket (applied at once, answered "ok ..." or "error: ...").
 *
 *   put <antenna> <uid>       a tag onto an antenna (taken off any other first)
 *   lift <uid>                a tag off the table
 *   miss <antenna|all> <p>    each tag misses each scan with probability p
 *   dead <antenna> <0|1>      a reader stops (1) or resumes (0) answering on SPI
 *   reset                     the reset pin: the AVR restarts, tags stay where they are
 *   unplug | replug           the USB cable: the port goes, then comes back, the board powers up
 *   drop <n> | corrupt <n>    the next n lines to the host are lost / arrive damaged
 *   silence <ms>              the firmware hangs: no byte goes out, what the host sends is lost
 *   stale <hex>               when the host next writes: its bytes are lost, <hex> comes out
 *                             (a USB bridge's stale buffer) and the board resets (DTR)
 *   send <text>               <text> and a newline to the board, as if from the host
 *   sync                      "ok <simulated ms>": everything before it is applied
 *   end                       stop the simulator (after --report, if asked)
 *
 * Script lines are "<ms> <command>"; '#' starts a comment. */
#ifndef BELOTE_SIM_SCENARIO_H
#define BELOTE_SIM_SCENARIO_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sim.h"

enum scenario_result { SCENARIO_OK, SCENARIO_ERROR, SCENARIO_END };

enum scenario_result scenario_apply(struct sim *s, const char *command, char *reply, size_t cap);

struct script {
    FILE *file;
    int line_no;
    uint64_t at_ms;
    char command[1024];
    int pending;
};

/* The next command of the script due by now_ms, or NULL; *error set on a bad line. */
const char *script_next(struct script *sc, uint64_t now_ms, char *error, size_t cap);

#endif
