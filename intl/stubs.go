package intl

type collator struct{}
type localeObj struct{ tag langTag }

func (r *realm) installRelativeTimeFormat() {}
func (r *realm) installListFormat()         {}
func (r *realm) installCollator()           {}
func (r *realm) installDisplayNames()       {}
func (r *realm) installLocale()             {}
func (r *realm) installSegmenter()          {}
func (r *realm) installPrototypes() error   { return nil }
