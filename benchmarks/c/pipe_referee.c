/* The floor for one referee round trip over pipes, for benchmarks/engine_speed.py.
 *
 * Usage: pipe_referee BOT N [WARMUP [REFEREE_CPU BOT_CPU]]
 * Starts BOT with its stdin and stdout on pipes (with the CPUs given, this program runs on
 * REFEREE_CPU and the bot on BOT_CPU; without them the scheduler places both), then N + WARMUP
 * times writes one versus2048
 * request (11 lines, 113 bytes, one write) and reads until the reply's LF. Each round trip is
 * timed with clock_gettime(CLOCK_MONOTONIC); the warm-up ones are not counted. Prints one line:
 * request_bytes reply_bytes n mean_ns median_ns min_ns p90_ns cpu_ns
 * where cpu_ns is this referee's own CPU time (user + system) per counted round trip.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char REQUEST[] =
    "1 100000 0 0\n"
    "0 1 2 0 3\n"
    "1 0 0 2 1\n"
    "4 2 1 0 0\n"
    "0 0 1 3 2\n"
    "2 1 0 0 1\n"
    "1 3 0 2 0\n"
    "0 2 1 1 4\n"
    "3 0 0 1 2\n"
    "1 1 2 0 0\n"
    "0 4 3 2 1\n";

static long long now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static long long cpu_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int by_value(const void *a, const void *b) {
    long long x = *(const long long *)a, y = *(const long long *)b;
    return (x > y) - (x < y);
}

static void pin(int cpu) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    if (sched_setaffinity(0, sizeof set, &set) != 0) {
        perror("pipe_referee: sched_setaffinity");
        exit(1);
    }
}

static void write_all(int fd, const char *data, size_t size) {
    while (size > 0) {
        ssize_t done = write(fd, data, size);
        if (done < 0) {
            if (errno == EINTR) continue;
            perror("pipe_referee: write");
            exit(1);
        }
        data += done;
        size -= (size_t)done;
    }
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s BOT N [WARMUP]\n", argv[0]);
        return 2;
    }
    const char *bot = argv[1];
    long n = atol(argv[2]);
    long warmup = argc > 3 ? atol(argv[3]) : 1000;
    int referee_cpu = argc > 5 ? atoi(argv[4]) : -1;
    int bot_cpu = argc > 5 ? atoi(argv[5]) : -1;
    if (n < 1 || warmup < 0) {
        fprintf(stderr, "pipe_referee: N must be at least 1\n");
        return 2;
    }
    int to_bot[2], from_bot[2];
    if (pipe(to_bot) || pipe(from_bot)) {
        perror("pipe_referee: pipe");
        return 1;
    }
    if (referee_cpu >= 0) pin(referee_cpu);
    pid_t pid = fork();
    if (pid < 0) {
        perror("pipe_referee: fork");
        return 1;
    }
    if (pid == 0) {
        if (bot_cpu >= 0) pin(bot_cpu);
        dup2(to_bot[0], 0);
        dup2(from_bot[1], 1);
        close(to_bot[0]);
        close(to_bot[1]);
        close(from_bot[0]);
        close(from_bot[1]);
        execl(bot, bot, (char *)NULL);
        perror("pipe_referee: exec");
        _exit(127);
    }
    close(to_bot[0]);
    close(from_bot[1]);

    long long *times = malloc(sizeof(long long) * (size_t)n);
    if (times == NULL) return 1;
    const size_t request_bytes = sizeof(REQUEST) - 1;
    size_t reply_bytes = 0;
    char buf[4096];
    long long cpu_start = 0;
    for (long i = -warmup; i < n; i++) {
        if (i == 0) cpu_start = cpu_ns();
        long long start = now_ns();
        write_all(to_bot[1], REQUEST, request_bytes);
        size_t got = 0;
        for (;;) {
            ssize_t r = read(from_bot[0], buf + got, sizeof buf - got);
            if (r < 0 && errno == EINTR) continue;
            if (r <= 0) {
                fprintf(stderr, "pipe_referee: the bot closed its stdout\n");
                return 1;
            }
            got += (size_t)r;
            if (memchr(buf, '\n', got) != NULL || got == sizeof buf) break;
        }
        long long end = now_ns();
        if (i >= 0) times[i] = end - start;
        reply_bytes = got;
    }
    long long cpu_used = cpu_ns() - cpu_start;
    close(to_bot[1]);
    waitpid(pid, NULL, 0);

    long double sum = 0;
    for (long i = 0; i < n; i++) sum += times[i];
    qsort(times, (size_t)n, sizeof(long long), by_value);
    printf("%zu %zu %ld %.0Lf %lld %lld %lld %lld\n", request_bytes, reply_bytes, n, sum / n, times[n / 2], times[0],
           times[(n * 9) / 10], cpu_used / n);
    free(times);
    return 0;
}
