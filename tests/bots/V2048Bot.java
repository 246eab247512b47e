import java.util.Scanner;

/** A versus2048 bot in Java, read the way the contest's sample AIs did: first effective slide, one tile. */
public class V2048Bot {
    static final int N = 5;

    static int slide(int[][] b, int[][] out, char d) {
        int merges = 0;
        for (int line = 0; line < N; line++) {
            int[] tiles = new int[N];
            int k = 0;
            for (int i = 0; i < N; i++) {
                int v = b[row(d, line, i)][col(d, line, i)];
                if (v != 0) tiles[k++] = v;
            }
            int[] res = new int[N];
            int m = 0;
            for (int i = 0; i < k; i++) {
                if (i + 1 < k && tiles[i] == tiles[i + 1]) { res[m++] = tiles[i] + 1; merges++; i++; }
                else res[m++] = tiles[i];
            }
            for (int i = 0; i < N; i++) out[row(d, line, i)][col(d, line, i)] = i < m ? res[i] : 0;
        }
        return merges;
    }

    static int row(char d, int line, int i) { return (d == 'L' || d == 'R') ? line : (d == 'U' ? i : N - 1 - i); }

    static int col(char d, int line, int i) { return (d == 'U' || d == 'D') ? line : (d == 'L' ? i : N - 1 - i); }

    public static void main(String[] args) {
        Scanner in = new Scanner(System.in);
        in.nextInt();
        System.out.println("1 1");
        System.out.flush();
        while (in.hasNextInt()) {
            for (int i = 0; i < 4; i++) in.nextInt();
            int[][] mine = new int[N][N], theirs = new int[N][N], next = new int[N][N];
            for (int r = 0; r < N; r++) for (int c = 0; c < N; c++) mine[r][c] = in.nextInt();
            for (int r = 0; r < N; r++) for (int c = 0; c < N; c++) theirs[r][c] = in.nextInt();
            String reply = null;
            for (char d : "URDL".toCharArray()) {
                int x = slide(mine, next, d);
                if (java.util.Arrays.deepEquals(mine, next)) continue;
                for (int r = 0; r < N && reply == null; r++)
                    for (int c = 0; c < N && reply == null; c++)
                        if (theirs[r][c] == 0) reply = d + " 1 " + (x + 1) + " " + (r + 1) + " " + (c + 1);
                break;
            }
            System.out.println(reply);
            System.out.flush();
        }
    }
}
