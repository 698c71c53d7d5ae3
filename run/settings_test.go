package run

import "testing"

// TestPolicySettingsOmitDefault: an option marked OmitDefault is recorded
// only when set to another value than its default, so that results of
// runs that do not use it stay byte-identical to those from before it.
func TestPolicySettingsOmitDefault(t *testing.T) {
	s := PolicySettings("hfsp", nil)
	if _, ok := s["initial-size"]; ok {
		t.Errorf("hfsp initial-size recorded at its default: %v", s)
	}
	if s["xi"] != "1" {
		t.Errorf("hfsp xi not recorded at its default: %v", s)
	}
	if s := PolicySettings("hfsp", map[string]string{"initial-size": "xi"}); s["initial-size"] != "" {
		t.Errorf("initial-size=xi (its default) recorded: %v", s)
	}
	if s := PolicySettings("hfsp", map[string]string{"initial-size": "estimate"}); s["initial-size"] != "estimate" {
		t.Errorf("initial-size=estimate not recorded: %v", s)
	}
	if s := PolicySettings("easy", map[string]string{"user-estimate": "synthetic"}); s["user-estimate"] != "synthetic" {
		t.Errorf("easy user-estimate=synthetic not recorded: %v", s)
	}
}
