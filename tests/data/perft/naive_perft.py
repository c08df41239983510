#!/usr/bin/env python3
"""Deliberately naive, independent perft for standard and Virrey chess.

Not part of virrey's build or CI: it exists only to cross-check the reference
numbers in tests/data/perft/*.perft (see scripts/crosscheck-perft.sh
--python). It shares no code or design with libvirrey: 8x8 mailbox, pseudo-
legal generation, make/copy-unmake, legality = "own king not attacked".
Slow (~50k nodes/s); fine to depth 3-4 on the test positions.

Usage:
  naive_perft.py standard|virrey FEN DEPTH   prints "depth nodes" for 1..DEPTH
  naive_perft.py --validate FEN              prints problems, exit 1 if any
  naive_perft.py --validate-stdin            same for "name<TAB>FEN" lines

Virrey chess: promotion compulsory, piece fixed by the destination file
(a,h R; b,g N; c,f B; d Q; e V). Viceroy V/v moves like a king, is not royal.
Board: list of 64, index = rank*8+file, a1=0. White pieces upper case.
"""
import sys

VIRREY_MAP = {0:'R',1:'N',2:'B',3:'Q',4:'V',5:'B',6:'N',7:'R'}
KN = [(1,2),(2,1),(-1,2),(-2,1),(1,-2),(2,-1),(-1,-2),(-2,-1)]
KG = [(1,0),(-1,0),(0,1),(0,-1),(1,1),(1,-1),(-1,1),(-1,-1)]
DIAG = [(1,1),(1,-1),(-1,1),(-1,-1)]
ORTH = [(1,0),(-1,0),(0,1),(0,-1)]

def need(cond, msg):
    if not cond: raise ValueError(msg)

def sq(f,r): return r*8+f
def name(s): return "abcdefgh"[s%8]+str(s//8+1)
def white(p): return p.isupper()

class Pos:
    def __init__(self, fen):
        f = fen.split()
        need(len(f) == 6, "FEN needs 6 fields")
        self.b = [None]*64
        rows = f[0].split('/')
        need(len(rows) == 8, "FEN needs 8 ranks")
        for i,row in enumerate(rows):
            r = 7-i; c = 0
            for ch in row:
                if ch.isdigit(): c += int(ch)
                else:
                    need(ch in "PNBRQKVpnbrqkv", ch)
                    self.b[sq(c,r)] = ch; c += 1
            need(c == 8, row)
        need(f[1] in ('w', 'b'), "side to move must be w or b")
        self.w = f[1] == 'w'
        self.cr = set(f[2]) - {'-'}
        self.ep = None if f[3] == '-' else sq("abcdefgh".index(f[3][0]), int(f[3][1])-1)

    def king(self, w):
        k = 'K' if w else 'k'
        return self.b.index(k)

    def attacked(self, s, by_white):
        b = self.b; f0, r0 = s%8, s//8
        # pawns
        dr = -1 if by_white else 1
        for df in (-1,1):
            f, r = f0+df, r0+dr
            if 0<=f<8 and 0<=r<8 and b[sq(f,r)] == ('P' if by_white else 'p'): return True
        for df,dr2 in KN:
            f, r = f0+df, r0+dr2
            if 0<=f<8 and 0<=r<8 and b[sq(f,r)] == ('N' if by_white else 'n'): return True
        for df,dr2 in KG:
            f, r = f0+df, r0+dr2
            if 0<=f<8 and 0<=r<8:
                p = b[sq(f,r)]
                if p and p in (('K','V') if by_white else ('k','v')): return True
        for dirs, pcs in ((DIAG,'BQ'),(ORTH,'RQ')):
            pcs = pcs if by_white else pcs.lower()
            for df,dr2 in dirs:
                f, r = f0+df, r0+dr2
                while 0<=f<8 and 0<=r<8:
                    p = b[sq(f,r)]
                    if p:
                        if p in pcs: return True
                        break
                    f += df; r += dr2
        return False

    def pseudo(self, virrey):
        b = self.b; w = self.w; mv = []
        own = (lambda p: p is not None and p.isupper() == w)
        opp = (lambda p: p is not None and p.isupper() != w)
        for s in range(64):
            p = b[s]
            if not own(p): continue
            t = p.upper(); f0, r0 = s%8, s//8
            if t == 'P':
                d = 1 if w else -1; last = 7 if w else 0; start = 1 if w else 6
                def add(to, ep=False):
                    if to//8 == last:
                        if virrey: pcs = [VIRREY_MAP[to%8]]
                        else: pcs = ['Q','R','B','N']
                        for pc in pcs: mv.append((s,to,pc if w else pc.lower(),ep,None))
                    else: mv.append((s,to,None,ep,None))
                one = sq(f0, r0+d)
                if b[one] is None:
                    add(one)
                    if r0 == start and b[sq(f0,r0+2*d)] is None: mv.append((s,sq(f0,r0+2*d),None,False,None))
                for df in (-1,1):
                    f = f0+df
                    if 0<=f<8:
                        to = sq(f, r0+d)
                        if opp(b[to]): add(to)
                        elif to == self.ep and b[to] is None: add(to, True)
            elif t in 'NKV':
                for df,dr in (KN if t=='N' else KG):
                    f, r = f0+df, r0+dr
                    if 0<=f<8 and 0<=r<8 and not own(b[sq(f,r)]): mv.append((s,sq(f,r),None,False,None))
                if t == 'K':
                    rank = 0 if w else 7
                    if s == sq(4,rank):
                        for right, rook_f, empt, path, kto in (('K',7,[5,6],[4,5,6],6),('Q',0,[1,2,3],[4,3,2],2)):
                            rr = right if w else right.lower()
                            if rr in self.cr and b[sq(rook_f,rank)] == ('R' if w else 'r') \
                               and all(b[sq(x,rank)] is None for x in empt) \
                               and not any(self.attacked(sq(x,rank), not w) for x in path):
                                mv.append((s, sq(kto,rank), None, False, 'castle'))
            else:
                dirs = DIAG if t=='B' else ORTH if t=='R' else DIAG+ORTH
                for df,dr in dirs:
                    f, r = f0+df, r0+dr
                    while 0<=f<8 and 0<=r<8:
                        q = b[sq(f,r)]
                        if own(q): break
                        mv.append((s,sq(f,r),None,False,None))
                        if q: break
                        f += df; r += dr
        return mv

    def make(self, m):
        s, to, promo, ep, castle = m
        b = self.b
        undo = (list(b), self.w, set(self.cr), self.ep)
        p = b[s]
        b[to] = promo if promo else p
        b[s] = None
        if ep: b[sq(to%8, s//8)] = None
        if castle:
            rank = s//8
            if to%8 == 6: b[sq(5,rank)] = b[sq(7,rank)]; b[sq(7,rank)] = None
            else: b[sq(3,rank)] = b[sq(0,rank)]; b[sq(0,rank)] = None
        # castling rights: based on squares touched
        for x, rights in ((sq(4,0),'KQ'),(sq(0,0),'Q'),(sq(7,0),'K'),(sq(4,7),'kq'),(sq(0,7),'q'),(sq(7,7),'k')):
            if s == x or to == x: self.cr -= set(rights)
        self.ep = None
        if p.upper() == 'P' and abs(to - s) == 16: self.ep = (s+to)//2
        self.w = not self.w
        return undo

    def unmake(self, undo):
        self.b, self.w, self.cr, self.ep = undo[0], undo[1], undo[2], undo[3]

    def legal(self, virrey):
        out = []
        for m in self.pseudo(virrey):
            u = self.make(m)
            if not self.attacked(self.king(not self.w), self.w): out.append(m)
            self.unmake(u)
        return out

def perft(pos, d, virrey):
    ms = pos.legal(virrey)
    if d == 1: return len(ms)
    n = 0
    for m in ms:
        u = pos.make(m); n += perft(pos, d-1, virrey); pos.unmake(u)
    return n

def validate(fen):
    """Return list of problems with the FEN as a legal position."""
    probs = []
    try: p = Pos(fen)
    except (ValueError, IndexError) as e: return ["parse: %s" % e]
    if p.b.count('K') != 1 or p.b.count('k') != 1: probs.append("need exactly one king each")
    for s in list(range(8)) + list(range(56,64)):
        if p.b[s] in ('P','p'): probs.append("pawn on rank 1/8 at " + name(s))
    if not probs and p.attacked(p.king(not p.w), p.w): probs.append("side not to move is in check")
    for ch, ks, rs, kp, rp in (('K',4,7,'K','R'),('Q',4,0,'K','R'),('k',60,63,'k','r'),('q',60,56,'k','r')):
        if ch in p.cr and not (p.b[ks] == kp and p.b[rs] == rp): probs.append("castling right %s without king/rook" % ch)
    if p.ep is not None:
        e = p.ep
        if p.w:
            ok = e//8 == 5 and p.b[e] is None and p.b[e+8] is None and p.b[e-8] == 'p'
        else:
            ok = e//8 == 2 and p.b[e] is None and p.b[e-8] is None and p.b[e+8] == 'P'
        if not ok: probs.append("inconsistent ep square")
    return probs

if __name__ == '__main__':
    a = sys.argv[1:]
    if a == ['--validate-stdin']:
        # lines "name<TAB>FEN" -> prints "name<TAB>problem" for invalid ones
        bad = 0
        for line in sys.stdin:
            if not line.strip(): continue
            nm, _, fen = line.rstrip('\n').partition('\t')
            for x in validate(fen.strip()):
                print("%s\t%s" % (nm, x)); bad = 1
        sys.exit(bad)
    if len(a) == 2 and a[0] == '--validate':
        v = validate(a[1])
        for x in v: print(x)
        sys.exit(1 if v else 0)
    if len(a) != 3 or a[0] not in ('standard', 'virrey'):
        print(__doc__); sys.exit(2)
    v = validate(a[1])
    if v: print("INVALID:", "; ".join(v)); sys.exit(2)
    pos = Pos(a[1])
    for d in range(1, int(a[2]) + 1):
        print(d, perft(pos, d, a[0] == 'virrey'), flush=True)
