/* Prints "ready" at start, then echoes every line it reads, flushing each. */
#include <stdio.h>

int main(void) {
    char line[4096];
    puts("ready");
    fflush(stdout);
    while (fgets(line, sizeof line, stdin)) {
        fputs(line, stdout);
        fflush(stdout);
    }
    return 0;
}
