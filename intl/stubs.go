package intl

type localeObj struct{ tag langTag }

func (r *realm) installRelativeTimeFormat() {}
func (r *realm) installListFormat()         {}
func (r *realm) installDisplayNames()       {}
func (r *realm) installLocale()             {}
func (r *realm) installSegmenter()          {}
