package intl

import "github.com/dop251/goja"

// digitOptions are the rounding settings of SetNumberFormatDigitOptions.
type digitOptions struct {
	minInt, minFrac, maxFrac, minSig, maxSig int
	// roundingType: "fractionDigits", "significantDigits", "morePrecision",
	// "lessPrecision"
	roundingType string
	priority     string // as resolvedOptions reports it
	increment    int
	mode         string
	trailingZero string
}

var roundingIncrements = map[int]bool{1: true, 2: true, 5: true, 10: true, 20: true, 25: true, 50: true, 100: true, 200: true, 250: true, 500: true, 1000: true, 2000: true, 2500: true, 5000: true}

var roundingModes = []string{"ceil", "floor", "expand", "trunc", "halfCeil", "halfFloor", "halfExpand", "halfTrunc", "halfEven"}

func (r *realm) digitOptions(o *goja.Object, mnfdDefault, mxfdDefault int, notation string) digitOptions {
	var d digitOptions
	d.minInt = r.getNumber(o, "minimumIntegerDigits", 1, 21, 1)
	get := func(k string) goja.Value {
		if o == nil {
			return goja.Undefined()
		}
		v := o.Get(k)
		if v == nil {
			return goja.Undefined()
		}
		return v
	}
	mnfd, mxfd, mnsd, mxsd := get("minimumFractionDigits"), get("maximumFractionDigits"), get("minimumSignificantDigits"), get("maximumSignificantDigits")
	d.increment = r.getNumber(o, "roundingIncrement", 1, 5000, 1)
	if !roundingIncrements[d.increment] {
		r.throwRange("roundingIncrement value is out of range.")
	}
	d.mode = r.getString(o, "roundingMode", roundingModes, "halfExpand")
	d.priority = r.getString(o, "roundingPriority", []string{"auto", "morePrecision", "lessPrecision"}, "auto")
	d.trailingZero = r.getString(o, "trailingZeroDisplay", []string{"auto", "stripIfInteger"}, "auto")
	if d.increment != 1 {
		mxfdDefault = mnfdDefault
	}
	hasSd := !goja.IsUndefined(mnsd) || !goja.IsUndefined(mxsd)
	hasFd := !goja.IsUndefined(mnfd) || !goja.IsUndefined(mxfd)
	needSd, needFd := true, true
	if d.priority == "auto" {
		needSd = hasSd
		if needSd || !hasFd && notation == "compact" {
			needFd = false
		}
	}
	if needSd {
		if hasSd {
			d.minSig = r.defaultNumber(mnsd, "minimumSignificantDigits", 1, 21, 1)
			d.maxSig = r.defaultNumber(mxsd, "maximumSignificantDigits", d.minSig, 21, 21)
		} else {
			d.minSig, d.maxSig = 1, 21
		}
	}
	if needFd {
		if hasFd {
			a := r.defaultNumber(mnfd, "minimumFractionDigits", 0, 100, -1)
			b := r.defaultNumber(mxfd, "maximumFractionDigits", 0, 100, -1)
			switch {
			case a == -1:
				a = min(mnfdDefault, b)
			case b == -1:
				b = max(mxfdDefault, a)
			case a > b:
				r.throwRange("maximumFractionDigits value is out of range.")
			}
			d.minFrac, d.maxFrac = a, b
		} else {
			d.minFrac, d.maxFrac = mnfdDefault, mxfdDefault
		}
	}
	switch {
	case !needSd && !needFd:
		d.minFrac, d.maxFrac, d.minSig, d.maxSig = 0, 0, 1, 2
		d.roundingType = "morePrecision"
		d.priority = "morePrecision"
	case d.priority == "auto":
		if needSd {
			d.roundingType = "significantDigits"
		} else {
			d.roundingType = "fractionDigits"
		}
	default:
		d.roundingType = d.priority
	}
	if d.increment != 1 {
		if d.roundingType != "fractionDigits" {
			r.throwType("roundingIncrement must be used with fraction digits")
		}
		if d.maxFrac != d.minFrac {
			r.throwRange("maximumFractionDigits not equal to minimumFractionDigits")
		}
	}
	return d
}

// resolvedInto adds the digit fields to a resolvedOptions object.
func (d *digitOptions) resolvedInto(r *realm, o *goja.Object, _ bool) {
	r.cdp(o, "minimumIntegerDigits", d.minInt)
	sig := d.roundingType != "fractionDigits"
	frac := d.roundingType != "significantDigits"
	if sig {
		r.cdp(o, "minimumSignificantDigits", d.minSig)
		r.cdp(o, "maximumSignificantDigits", d.maxSig)
	}
	if frac {
		r.cdp(o, "minimumFractionDigits", d.minFrac)
		r.cdp(o, "maximumFractionDigits", d.maxFrac)
	}
}

// round applies the rounding of FormatNumericToString to |x| and returns
// the rounded value with the minimum fraction digits to show.
func (d *digitOptions) roundShow(x decimal) (decimal, int) {
	switch d.roundingType {
	case "significantDigits":
		v := d.roundSig(x)
		return v, d.sigMinFrac(v)
	case "fractionDigits":
		return d.roundFrac(x), d.minFrac
	}
	s := d.roundSig(x)
	f := d.roundFrac(x)
	sMag := x.magnitude() - d.maxSig + 1
	fMag := -d.maxFrac
	pickSig := sMag <= fMag
	if d.roundingType == "lessPrecision" {
		pickSig = sMag >= fMag
		if sMag == fMag {
			pickSig = false
		}
	}
	if pickSig {
		return s, d.sigMinFrac(s)
	}
	return f, d.minFrac
}

func (d *digitOptions) roundSig(x decimal) decimal {
	if x.isZero() {
		return x
	}
	return x.roundAt(x.magnitude()-d.maxSig+1, d.mode)
}

func (d *digitOptions) sigMinFrac(v decimal) int {
	// minSig digits counted from the leading digit
	mag := v.magnitude()
	if v.isZero() {
		mag = 0
	}
	n := d.minSig - mag - 1
	if n < 0 {
		return 0
	}
	return n
}

func (d *digitOptions) roundFrac(x decimal) decimal {
	if d.increment != 1 {
		return x.roundIncrement(-d.maxFrac, d.increment, d.mode)
	}
	return x.roundAt(-d.maxFrac, d.mode)
}

// round returns the rounded value (sign kept) for plural selection.
func (d *digitOptions) round(x decimal) decimal {
	v, _ := d.roundShow(x)
	return v
}

// strings gives the integer and fraction digit strings of a rounded value.
func (d *digitOptions) strings(x decimal) (string, string) {
	v, minFrac := d.roundShow(x)
	if d.trailingZero == "stripIfInteger" && v.fracLen() == 0 {
		minFrac = 0
	}
	return v.digitStrings(d.minInt, minFrac)
}
