/* A versus2048 bot in C: first effective slide, then one tile of 2^(X+1) on the first empty cell. */
#include <stdio.h>
#include <string.h>

#define N 5
static int slide(int b[N][N], int out[N][N], char d) {
    int merges = 0;
    memset(out, 0, sizeof(int) * N * N);
    for (int line = 0; line < N; line++) {
        int tiles[N], k = 0, res[N], m = 0;
        for (int i = 0; i < N; i++) {
            int r = (d == 'L' || d == 'R') ? line : (d == 'U' ? i : N - 1 - i);
            int c = (d == 'U' || d == 'D') ? line : (d == 'L' ? i : N - 1 - i);
            if (b[r][c]) tiles[k++] = b[r][c];
        }
        for (int i = 0; i < k; i++) {
            if (i + 1 < k && tiles[i] == tiles[i + 1]) { res[m++] = tiles[i] + 1; merges++; i++; }
            else res[m++] = tiles[i];
        }
        for (int i = 0; i < m; i++) {
            int r = (d == 'L' || d == 'R') ? line : (d == 'U' ? i : N - 1 - i);
            int c = (d == 'U' || d == 'D') ? line : (d == 'L' ? i : N - 1 - i);
            out[r][c] = res[i];
        }
    }
    return merges;
}

int main(void) {
    int me, turn, left, s1, s2, mine[N][N], theirs[N][N], next[N][N];
    if (scanf("%d", &me) != 1) return 0;
    printf("%d %d\n", 1, 1);
    fflush(stdout);
    while (scanf("%d %d %d %d", &turn, &left, &s1, &s2) == 4) {
        for (int r = 0; r < N; r++) for (int c = 0; c < N; c++) scanf("%d", &mine[r][c]);
        for (int r = 0; r < N; r++) for (int c = 0; c < N; c++) scanf("%d", &theirs[r][c]);
        const char *dirs = "URDL";
        for (int i = 0; i < 4; i++) {
            int x = slide(mine, next, dirs[i]);
            if (memcmp(mine, next, sizeof(next)) == 0) continue;
            for (int r = 0; r < N; r++) for (int c = 0; c < N; c++)
                if (!theirs[r][c]) { printf("%c 1 %d %d %d\n", dirs[i], x + 1, r + 1, c + 1); fflush(stdout); goto done; }
        }
        return 1;
    done:;
    }
    return 0;
}
