package url

import (
	"reflect"
	"regexp"
	"unsafe"

	"github.com/dop251/goja"
	"github.com/dunglas/go-urlpattern"
)

// groups makes a component result's groups record. go-urlpattern gives
// the groups as a Go map, which loses the order of the names and turns a
// group that did not participate in the match into "" where the standard
// (and JS regexps) have undefined. Both are recovered from the
// component's regexp and group name list, read from the pattern's
// unexported fields (see compiledPart); if a later version of the library
// lays them out differently, groups falls back to the map as it is.
func (c *classes) groups(p *urlpattern.URLPattern, part string, cr urlpattern.URLPatternComponentResult) *goja.Object {
	g := c.rt.NewObject()
	re, names, ok := compiledPart(p, part)
	if ok {
		if m := re.FindStringSubmatchIndex(cr.Input); m != nil && len(m) >= 2*(len(names)+1) {
			for i, name := range names {
				if s, e := m[2*(i+1)], m[2*(i+1)+1]; s >= 0 {
					_ = g.Set(name, cr.Input[s:e])
				} else {
					_ = g.Set(name, goja.Undefined())
				}
			}
			return g
		}
	}
	for k, v := range cr.Groups {
		_ = g.Set(k, v)
	}
	return g
}

// compiledPart returns the regexp and group names go-urlpattern compiled
// for one component of p.
func compiledPart(p *urlpattern.URLPattern, part string) (*regexp.Regexp, []string, bool) {
	f := reflect.ValueOf(p).Elem().FieldByName(part)
	if !f.IsValid() || f.Kind() != reflect.Pointer || f.IsNil() || f.Elem().Kind() != reflect.Struct {
		return nil, nil, false
	}
	comp := f.Elem()
	ref := comp.FieldByName("regularExpression")
	list := comp.FieldByName("groupNameList")
	if !ref.IsValid() || ref.Type() != reflect.TypeOf((*regexp.Regexp)(nil)) ||
		!list.IsValid() || list.Type() != reflect.TypeOf([]string(nil)) {
		return nil, nil, false
	}
	re := *(**regexp.Regexp)(unsafe.Pointer(ref.UnsafeAddr()))
	names := *(*[]string)(unsafe.Pointer(list.UnsafeAddr()))
	return re, names, re != nil
}
