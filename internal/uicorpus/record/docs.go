package main

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"os"
	"path/filepath"
)

// The office folder of the local file-processing server (heldout.go): the
// shop's documents as a small business keeps them. The two PDFs are the ones
// chromium prints for the PDF servers (heldout_data.go); the images are drawn
// here (a product shot of an anvil on a shelf, as PNG and JPEG, and the shop's
// logo as SVG); the rest is text in the formats such a server converts.

func productShot(w, h int) image.Image {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			// A warm wall fading to a grey shelf, an anvil in the middle.
			c := color.RGBA{uint8(236 - y*60/h), uint8(222 - y*70/h), uint8(200 - y*80/h), 255}
			if y > h*3/4 {
				c = color.RGBA{120, 116, 110, 255}
			}
			ax, ay := x-w/2, y-h*3/5
			switch {
			case ay > -h/10 && ay < 0 && ax > -w/4 && ax < w/4: // face
				c = color.RGBA{58, 60, 66, 255}
			case ay >= 0 && ay < h/10 && ax > -w/12 && ax < w/12: // waist
				c = color.RGBA{44, 46, 52, 255}
			case ay >= h/10 && ay < h*3/20 && ax > -w/6 && ax < w/6: // foot
				c = color.RGBA{50, 52, 58, 255}
			case ay > -h/10 && ay < -h/20 && ax >= w/4 && ax < w/4+w/8-(ay+h/10)*2: // horn
				c = color.RGBA{70, 72, 80, 255}
			}
			img.Set(x, y, c)
		}
	}
	return img
}

var docsText = map[string]string{
	"logo.svg": `<svg xmlns="http://www.w3.org/2000/svg" width="240" height="80" viewBox="0 0 240 80">
  <rect width="240" height="80" rx="12" fill="#1f2937"/>
  <path d="M20 50h40l-6-14H26z" fill="#f59e0b"/>
  <text x="72" y="50" font-family="sans-serif" font-size="28" fill="#fff">ACME</text>
</svg>
`,
	"orders.csv":  "id,customer,product,quantity,total,status\n1001,Charles Babbage,Rocket skates,8,719.20,shipped\n1002,Grace Hopper,Giant magnet,6,119.40,shipped\n1003,Alan Turing,Bird seed,4,18.00,cancelled\n1004,Katherine Johnson,Earthquake pills,2,24.00,pending\n1005,Edsger Dijkstra,Anvil,9,2241.00,shipped\n1006,Ada Lovelace,Rocket skates,7,629.30,shipped\n",
	"stock.tsv":   "sku\tname\tunit_price\tin_stock\nANV-001\tAnvil\t249.00\t12\nSKT-002\tRocket skates\t89.90\t40\nMAG-003\tGiant magnet\t19.90\t75\nSEED-004\tBird seed\t4.50\t300\nPILL-005\tEarthquake pills\t12.00\t0\n",
	"orders.json": `[{"id":1001,"customer":"Charles Babbage","product":"Rocket skates","quantity":8,"total":719.2,"status":"shipped"},{"id":1002,"customer":"Grace Hopper","product":"Giant magnet","quantity":6,"total":119.4,"status":"shipped"},{"id":1003,"customer":"Alan Turing","product":"Bird seed","quantity":4,"total":18,"status":"cancelled"},{"id":1004,"customer":"Katherine Johnson","product":"Earthquake pills","quantity":2,"total":24,"status":"pending"}]`,
	"broken.json": `{"shop": "acme", "currency": "EUR", "vat": 0.21,, "regions": ["eu", "us"]}`,
	"config.yaml": "shop:\n  name: ACME Corporation\n  currency: EUR\n  vat: 0.21\nshipping:\n  free_above: 100\n  carriers:\n    - name: DHL\n      days: 2\n    - name: PostNL\n      days: 3\nfeatures:\n  gift_wrap: true\n  reviews: false\n",
	"article.html": `<html><body><article><h1>How we pack an anvil</h1><p>Anvils are <strong>heavy</strong> &amp; awkward: we ship them on a pallet, strapped, with the horn wrapped in foam.</p>
<h2>Checklist</h2><ul><li>Weigh the anvil (&lt; 70 kg for parcel carriers)</li><li>Strap it to the pallet</li><li>Print the <a href="https://example.com/labels">label</a></li></ul>
<table><tr><th>Size</th><th>Pallet</th></tr><tr><td>Small</td><td>EUR 1</td></tr><tr><td>Large</td><td>EUR 6</td></tr></table></article></body></html>
`,
	"README.md":        "# ACME shop documents\n\nThis folder holds the **invoices**, the quarterly report and the product images.\n\n## Conventions\n\n- Invoices are named `invoice-YEAR-NUMBER.pdf`\n- Images are PNG, at least 640 px wide\n- [ ] Move the 2025 invoices to the archive\n- [x] Add the logo as SVG\n\n| File | Owner |\n| --- | --- |\n| report.pdf | Grace |\n| invoice.pdf | Ada |\n\nSee <https://example.com/handbook> for the handbook.\n",
	"feed.xml":         `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>ACME news</title><link>https://acme.example/news</link><item><title>Rocket skates back in stock</title><pubDate>Mon, 30 Nov 2026 09:00:00 GMT</pubDate><category>stock</category></item><item><title>Free shipping above 100 EUR</title><pubDate>Tue, 01 Dec 2026 08:00:00 GMT</pubDate><category>shipping</category></item></channel></rss>`,
	"CHANGELOG-1.3.md": "# Changelog\n\n## 1.3.0\n\n- Orders can be exported as CSV\n- Totals are shown with two decimals\n- The daily report is sent at 07:00\n",
	"CHANGELOG-1.4.md": "# Changelog\n\n## 1.4.0\n\n- Totals are computed in cents (fixes a rounding error)\n\n## 1.3.0\n\n- Orders can be exported as CSV\n- Totals are shown with two decimals\n- The daily report is sent at 06:00\n",
	"callback-url.txt": "https://shop.example/checkout/return?order=1025&status=paid&note=gift wrap, please & thanks",
	"encoded-url.txt":  "https%3A%2F%2Fshop.example%2Fsearch%3Fq%3Drocket%20skates%26sort%3Dprice",
	"notice.html":      "Prices in € &amp; $ — \"free\" shipping for orders > 100 <b>EUR</b>",
	"entities.txt":     "Tom &amp; Jerry&#39;s &lt;anvil&gt; costs &euro;249 &mdash; &quot;heavy&quot;",
}

// makeDocs writes the office folder, with the PDFs printed for the PDF
// servers copied in.
func (w *world) makeDocs() error {
	if err := w.need("pdf"); err != nil {
		return err
	}
	dir := filepath.Join(w.root, "office")
	if err := os.MkdirAll(filepath.Join(dir, "out"), 0o755); err != nil {
		return err
	}
	for _, name := range []string{"invoice.pdf", "report.pdf"} {
		b, err := os.ReadFile(filepath.Join(w.pdfs, name))
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			return err
		}
	}
	for name, text := range docsText {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			return err
		}
	}
	// A signed-in customer's token (HS256 over a fixed key; the server only decodes it).
	enc := base64.RawURLEncoding.EncodeToString
	jwt := enc([]byte(`{"alg":"HS256","typ":"JWT"}`)) + "." +
		enc([]byte(`{"sub":"customer-1006","name":"Ada Lovelace","role":"customer","iat":1796198400,"exp":1796284800}`)) + "." +
		enc([]byte("signature-not-checked-by-a-decoder"))
	if err := os.WriteFile(filepath.Join(dir, "session.jwt"), []byte(jwt), 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "greeting.b64"), []byte(base64.StdEncoding.EncodeToString([]byte("Thank you for your order, Ada! Your anvil ships on Monday.\n"))), 0o644); err != nil {
		return err
	}
	shot := productShot(640, 480)
	for name, encode := range map[string]func(f *os.File) error{
		"anvil.png": func(f *os.File) error { return png.Encode(f, shot) },
		"anvil.jpg": func(f *os.File) error {
			var b bytes.Buffer
			if err := jpeg.Encode(&b, shot, &jpeg.Options{Quality: 92}); err != nil {
				return err
			}
			_, err := f.Write(withExif(b.Bytes(), [][2]string{{"Make", "Fujifilm"}, {"Model", "X-T5"}, {"Software", "ACME shop photos 2.1"}, {"DateTime", "2026:11:28 14:05:31"}, {"Artist", "Grace Hopper"}, {"Copyright", "ACME Corporation"}}))
			return err
		},
	} {
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			return err
		}
		err = encode(f)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	w.docs = dir
	return nil
}

// withExif puts an EXIF block (APP1, a little-endian TIFF header and one IFD
// of ASCII tags) right after a JPEG's start-of-image marker, as a camera
// writes it.
func withExif(jpg []byte, tags [][2]string) []byte {
	ids := map[string]uint16{"Make": 0x010f, "Model": 0x0110, "Software": 0x0131, "DateTime": 0x0132, "Artist": 0x013b, "Copyright": 0x8298}
	le := binary.LittleEndian
	var ifd, data bytes.Buffer
	dataAt := 8 + 2 + 12*len(tags) + 4
	_ = binary.Write(&ifd, le, uint16(len(tags)))
	for _, t := range tags {
		v := append([]byte(t[1]), 0)
		_ = binary.Write(&ifd, le, ids[t[0]])
		_ = binary.Write(&ifd, le, uint16(2))
		_ = binary.Write(&ifd, le, uint32(len(v)))
		if len(v) <= 4 {
			ifd.Write(append(v, make([]byte, 4-len(v))...))
			continue
		}
		_ = binary.Write(&ifd, le, uint32(dataAt+data.Len()))
		data.Write(v)
		if data.Len()%2 == 1 {
			data.WriteByte(0)
		}
	}
	_ = binary.Write(&ifd, le, uint32(0))
	tiff := append([]byte("II*\x00\x08\x00\x00\x00"), ifd.Bytes()...)
	tiff = append(tiff, data.Bytes()...)
	seg := append([]byte("Exif\x00\x00"), tiff...)
	app1 := []byte{0xff, 0xe1, byte((len(seg) + 2) >> 8), byte(len(seg) + 2)}
	out := append([]byte{}, jpg[:2]...)
	out = append(out, app1...)
	out = append(out, seg...)
	return append(out, jpg[2:]...)
}
