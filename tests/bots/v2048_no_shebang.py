# A versus2048 bot that plays legal moves, written to be made executable (mode 755) but with no "#!" line:
# run as ./v2048_no_shebang.py the kernel refuses it (ENOEXEC, "Exec format error"); python3 runs it.
from botio import read_line, say
from v2048lib import legal_reply, read_turn

read_line()
say("1 1")
while True:
    _, mine, theirs = read_turn()
    say(legal_reply(mine, theirs))
