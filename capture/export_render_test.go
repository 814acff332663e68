package capture

import "github.com/go-rod/rod"

// SetAfterNavigate installs (or, with nil, removes) a function run once a
// page's navigation has started: the tests crash a tab with it.
func SetAfterNavigate(br *Browser, f func(p *rod.Page, url string)) {
	if f == nil {
		br.afterNav.Store(nil)
		return
	}
	br.afterNav.Store(&f)
}
