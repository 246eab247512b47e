/* A bot that does no thinking, for benchmarks/engine_speed.py: it reads its stdin and, after
 * every complete versus2048 turn request (11 lines), writes one 14-byte reply line with a single
 * write. It exits when stdin closes. */
#include <errno.h>
#include <string.h>
#include <unistd.h>

static const char REPLY[] = "L 2 1 3 4 5 1\n";
enum { LINES_PER_REQUEST = 11 };

int main(void) {
    char buf[65536];
    int lines = 0;
    for (;;) {
        ssize_t got = read(0, buf, sizeof buf);
        if (got == 0) return 0;
        if (got < 0) {
            if (errno == EINTR) continue;
            return 1;
        }
        for (ssize_t i = 0; i < got; i++) {
            if (buf[i] == '\n' && ++lines == LINES_PER_REQUEST) {
                lines = 0;
                const char *data = REPLY;
                size_t size = sizeof(REPLY) - 1;
                while (size > 0) {
                    ssize_t done = write(1, data, size);
                    if (done < 0) {
                        if (errno == EINTR) continue;
                        return 1;
                    }
                    data += done;
                    size -= (size_t)done;
                }
            }
        }
    }
}
