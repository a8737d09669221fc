package intl

import (
	"math"
	"math/big"
	"strconv"
	"strings"
)

// decimal is an exact decimal number: value = 0.d[0]d[1]… × 10^pt, digits
// without leading or trailing zeros (empty for zero). ICU formats doubles
// from their shortest round-trip digits, and so does this.
type decimal struct {
	neg bool
	d   []byte
	pt  int
	inf bool
	nan bool
}

func decFromFloat(f float64) decimal {
	var x decimal
	if math.IsNaN(f) {
		x.nan = true
		return x
	}
	x.neg = math.Signbit(f)
	if math.IsInf(f, 0) {
		x.inf = true
		return x
	}
	if f == 0 {
		return x
	}
	s := strconv.FormatFloat(math.Abs(f), 'e', -1, 64) // d.ddde±x
	e := strings.IndexByte(s, 'e')
	exp, _ := strconv.Atoi(s[e+1:])
	m := strings.Replace(s[:e], ".", "", 1)
	x.d = []byte(m)
	x.pt = exp + 1
	x.trim()
	return x
}

func decFromBig(b *big.Int) decimal {
	var x decimal
	s := b.String()
	if s[0] == '-' {
		x.neg = true
		s = s[1:]
	}
	if s == "0" {
		return x
	}
	x.d = []byte(s)
	x.pt = len(s)
	x.trim()
	return x
}

// decFromString parses a StringNumericLiteral exactly (ECMA-402's
// ToIntlMathematicalValue); ok is false when it is not one (NaN).
func decFromString(s string) (decimal, bool) {
	s = strings.TrimFunc(s, isJSSpace)
	var x decimal
	if s == "" {
		return x, true
	}
	if len(s) > 2 && s[0] == '0' && strings.ContainsRune("xXoObB", rune(s[1])) {
		base := map[byte]int{'x': 16, 'X': 16, 'o': 8, 'O': 8, 'b': 2, 'B': 2}[s[1]]
		b, ok := new(big.Int).SetString(s[2:], base)
		if !ok {
			return x, false
		}
		return decFromBig(b), true
	}
	if s[0] == '-' || s[0] == '+' {
		x.neg = s[0] == '-'
		s = s[1:]
	}
	if s == "Infinity" {
		x.inf = true
		return x, true
	}
	mant, exp := s, 0
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		mant = s[:i]
		e, err := strconv.Atoi(s[i+1:])
		if err != nil || s[i+1:] == "" || strings.HasPrefix(s[i+1:], "+") && len(s) == i+2 {
			return x, false
		}
		exp = e
	}
	ip, fp := mant, ""
	if i := strings.IndexByte(mant, '.'); i >= 0 {
		ip, fp = mant[:i], mant[i+1:]
	}
	if ip == "" && fp == "" {
		return x, false
	}
	for _, c := range ip + fp {
		if c < '0' || c > '9' {
			return x, false
		}
	}
	x.d = []byte(ip + fp)
	x.pt = len(ip) + exp
	x.trim()
	return x, true
}

func isJSSpace(r rune) bool {
	switch r {
	case ' ', '\t', '\n', '\v', '\f', '\r', 0xA0, 0xFEFF, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000:
		return true
	}
	return r >= 0x2000 && r <= 0x200A
}

func (x *decimal) trim() {
	i := 0
	for i < len(x.d) && x.d[i] == '0' {
		i++
	}
	x.d = x.d[i:]
	x.pt -= i
	j := len(x.d)
	for j > 0 && x.d[j-1] == '0' {
		j--
	}
	x.d = x.d[:j]
	if len(x.d) == 0 {
		x.pt = 0
	}
}

func (x decimal) isZero() bool { return !x.inf && !x.nan && len(x.d) == 0 }

// magnitude is the exponent of the leading digit (floor(log10|x|)).
func (x decimal) magnitude() int {
	if len(x.d) == 0 {
		return 0
	}
	return x.pt - 1
}

func (x decimal) shift(n int) decimal {
	if len(x.d) > 0 {
		x.pt += n
	}
	return x
}

// roundAt rounds x to a multiple of 10^pos (pos = -2 keeps 2 fraction
// digits) in mode.
func (x decimal) roundAt(pos int, mode string) decimal {
	if x.inf || x.nan || len(x.d) == 0 {
		return x
	}
	keep := x.pt - pos // digits at or above 10^pos
	if keep >= len(x.d) {
		return x
	}
	// the discarded part compared with half a unit, and the kept digits
	var half int // -1 below half, 0 exactly half, 1 above
	var kept []byte
	if keep < 0 {
		half = -1 // below 10^(pos-1): less than half
		kept = nil
	} else {
		kept = x.d[:keep]
		rest := x.d[keep:]
		switch {
		case rest[0] > '5':
			half = 1
		case rest[0] < '5':
			half = -1
		default:
			half = 0
			for _, c := range rest[1:] {
				if c != '0' {
					half = 1
					break
				}
			}
		}
	}
	odd := len(kept) > 0 && (kept[len(kept)-1]-'0')%2 == 1
	up := false
	switch mode {
	case "ceil":
		up = !x.neg
	case "floor":
		up = x.neg
	case "expand":
		up = true
	case "trunc":
		up = false
	case "halfCeil":
		up = half > 0 || half == 0 && !x.neg
	case "halfFloor":
		up = half > 0 || half == 0 && x.neg
	case "halfTrunc":
		up = half > 0
	case "halfEven":
		up = half > 0 || half == 0 && odd
	default:
		up = half >= 0
	}
	out := decimal{neg: x.neg}
	d := make([]byte, len(kept), len(kept)+1)
	copy(d, kept)
	pt := x.pt
	if keep < 0 {
		pt = pos + 0
	}
	if up {
		i := len(d) - 1
		for ; i >= 0; i-- {
			if d[i] == '9' {
				d[i] = '0'
				continue
			}
			d[i]++
			break
		}
		if i < 0 {
			d = append([]byte{'1'}, d...)
			pt++
			if keep < 0 {
				pt = pos + 1
			}
		}
	} else if keep <= 0 {
		return out
	}
	out.d, out.pt = d, pt
	out.trim()
	return out
}

// roundIncrement rounds x to a multiple of inc × 10^pos.
func (x decimal) roundIncrement(pos int, inc int, mode string) decimal {
	if x.inf || x.nan || len(x.d) == 0 {
		return x
	}
	// keep = number of digits at or above 10^pos
	keep := x.pt - pos
	if keep >= len(x.d) && inc == 1 {
		return x
	}
	// Work with a big integer of the digits at or above pos, and the rest.
	var q big.Int // quotient: x / (inc*10^pos), truncated
	var cmp int   // remainder compared to half: -1 below, 0 equal, 1 above; rem0 when zero
	rem0 := false
	// scaled = digits as integer × 10^(pt-len-pos)
	digits := new(big.Int)
	digits.SetString(string(x.d), 10)
	scale := x.pt - len(x.d) - pos // value/10^pos = digits × 10^scale
	num := new(big.Int).Set(digits)
	den := big.NewInt(int64(inc))
	if scale >= 0 {
		num.Mul(num, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(scale)), nil))
	} else {
		den.Mul(den, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(-scale)), nil))
	}
	var r big.Int
	q.QuoRem(num, den, &r)
	if r.Sign() == 0 {
		rem0 = true
	} else {
		cmp = new(big.Int).Mul(&r, big.NewInt(2)).Cmp(den)
	}
	up := false
	if !rem0 {
		odd := q.Bit(0) == 1
		switch mode {
		case "ceil":
			up = !x.neg
		case "floor":
			up = x.neg
		case "expand":
			up = true
		case "trunc":
			up = false
		case "halfCeil":
			up = cmp > 0 || cmp == 0 && !x.neg
		case "halfFloor":
			up = cmp > 0 || cmp == 0 && x.neg
		case "halfTrunc":
			up = cmp > 0
		case "halfEven":
			up = cmp > 0 || cmp == 0 && odd
		default: // halfExpand
			up = cmp >= 0
		}
	}
	if up {
		q.Add(&q, big.NewInt(1))
	}
	q.Mul(&q, big.NewInt(int64(inc)))
	out := decimal{neg: x.neg}
	if q.Sign() == 0 {
		return out
	}
	s := q.String()
	out.d = []byte(s)
	out.pt = len(s) + pos
	out.trim()
	return out
}

// intDigits returns the digits of the integer part (at least minInt, zero
// padded) and the fraction digits (at least minFrac, zero padded).
func (x decimal) digitStrings(minInt, minFrac int) (string, string) {
	var ip, fp []byte
	if x.pt > 0 {
		for i := 0; i < x.pt; i++ {
			if i < len(x.d) {
				ip = append(ip, x.d[i])
			} else {
				ip = append(ip, '0')
			}
		}
	}
	for len(ip) < minInt {
		ip = append([]byte{'0'}, ip...)
	}
	if x.pt < 0 {
		for i := 0; i < -x.pt; i++ {
			fp = append(fp, '0')
		}
		fp = append(fp, x.d...)
	} else if x.pt < len(x.d) {
		fp = append(fp, x.d[x.pt:]...)
	}
	if len(fp) > 0 && len(fp) < 0 {
		fp = nil
	}
	for len(fp) < minFrac {
		fp = append(fp, '0')
	}
	return string(ip), string(fp)
}

// fracLen is the number of fraction digits x has.
func (x decimal) fracLen() int {
	if n := len(x.d) - x.pt; n > 0 {
		return n
	}
	return 0
}

func (x decimal) cmpAbs(y decimal) int {
	if len(x.d) == 0 || len(y.d) == 0 {
		switch {
		case len(x.d) == 0 && len(y.d) == 0:
			return 0
		case len(x.d) == 0:
			return -1
		}
		return 1
	}
	if x.pt != y.pt {
		if x.pt < y.pt {
			return -1
		}
		return 1
	}
	c := strings.Compare(string(x.d), string(y.d))
	return c
}

func (x decimal) cmp(y decimal) int {
	if x.nan || y.nan {
		return 2
	}
	sx, sy := x.sign(), y.sign()
	if x.inf || y.inf {
		ix, iy := 0, 0
		if x.inf {
			ix = sx
		}
		if y.inf {
			iy = sy
		}
		if ix != iy {
			if ix < iy {
				return -1
			}
			return 1
		}
		if x.inf {
			return 0
		}
	}
	if sx != sy {
		if sx < sy {
			return -1
		}
		return 1
	}
	c := x.cmpAbs(y)
	if sx < 0 {
		return -c
	}
	return c
}

func (x decimal) sign() int {
	if x.isZero() {
		return 0
	}
	if x.neg {
		return -1
	}
	return 1
}

// float returns x as a float64 (for plural operands).
func (x decimal) String() string {
	if x.nan {
		return "NaN"
	}
	if x.inf {
		if x.neg {
			return "-Infinity"
		}
		return "Infinity"
	}
	ip, fp := x.digitStrings(1, 0)
	s := ip
	if fp != "" {
		s += "." + fp
	}
	if x.neg {
		s = "-" + s
	}
	return s
}
