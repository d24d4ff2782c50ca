package format

import "testing"

// TestRequiredMasks checks the constant masks the page-header decoders
// compare with against their required-field tables.
func TestRequiredMasks(t *testing.T) {
	for _, c := range []struct {
		fields requiredFields
		mask   uint32
	}{
		{dataPageHeaderFields, dataPageHeaderMask},
		{dictionaryPageHeaderFields, dictionaryPageHeaderMask},
		{dataPageHeaderV2Fields, dataPageHeaderV2Mask},
		{pageHeaderFields, pageHeaderMask},
	} {
		if c.fields.mask != c.mask {
			t.Errorf("%s: mask %#b, table says %#b", c.fields.structName, c.mask, c.fields.mask)
		}
		if err := c.fields.missing(c.mask); err != nil {
			t.Errorf("%s: %v with every required field", c.fields.structName, err)
		}
		if err := c.fields.missing(c.mask &^ (c.mask & -c.mask)); err == nil {
			t.Errorf("%s: no error without the first required field", c.fields.structName)
		}
	}
}
