package certify

import (
	"fmt"
	"io"
	"math"
	"math/bits"
	"math/cmplx"

	"sabot/shoe"
)

// NIST SP 800-22 Rev. 1a, "A Statistical Test Suite for Random and
// Pseudorandom Number Generators for Cryptographic Applications": its 15
// tests on a sequence of bits (each 0 or 1), with the document's
// parameters for a sequence of 10⁶ bits, each returning its p-values (one,
// or one per template, pattern or state). Section numbers are the
// document's; the tests check each against its worked example (§2.x.8).

// igamc is the document's igamc(a, x): the regularized upper incomplete
// gamma function Q(a, x).
func igamc(a, x float64) float64 { return gammaQ(a, x) }

func normalCDF(x float64) float64 { return 0.5 * math.Erfc(-x/math.Sqrt2) }

// NISTFrequency is the Frequency (Monobit) Test, §2.1.
func NISTFrequency(e []byte) float64 {
	s := 0
	for _, b := range e {
		s += 2*int(b) - 1
	}
	return math.Erfc(math.Abs(float64(s)) / math.Sqrt(float64(len(e))) / math.Sqrt2)
}

// NISTBlockFrequency is the Frequency Test within a Block, §2.2, blocks of
// m bits.
func NISTBlockFrequency(e []byte, m int) float64 {
	n := len(e) / m
	x2 := 0.0
	for i := 0; i < n; i++ {
		ones := 0
		for _, b := range e[i*m : (i+1)*m] {
			ones += int(b)
		}
		d := float64(ones)/float64(m) - 0.5
		x2 += d * d
	}
	x2 *= 4 * float64(m)
	return igamc(float64(n)/2, x2/2)
}

// NISTRuns is the Runs Test, §2.3 (0 when the frequency prerequisite
// fails, as the document says).
func NISTRuns(e []byte) float64 {
	n := float64(len(e))
	ones := 0
	for _, b := range e {
		ones += int(b)
	}
	pi := float64(ones) / n
	if math.Abs(pi-0.5) >= 2/math.Sqrt(n) {
		return 0
	}
	v := 1
	for i := 1; i < len(e); i++ {
		if e[i] != e[i-1] {
			v++
		}
	}
	return math.Erfc(math.Abs(float64(v)-2*n*pi*(1-pi)) / (2 * math.Sqrt(2*n) * pi * (1 - pi)))
}

// NISTLongestRun is the Test for the Longest Run of Ones in a Block,
// §2.4, with the document's block size for the sequence's length (Table
// of §2.4.2: 8 from 128 bits, 128 from 6,272, 10⁴ from 750,000).
func NISTLongestRun(e []byte) float64 {
	var m, lo int
	var pi []float64
	switch n := len(e); {
	case n < 6272:
		m, lo, pi = 8, 1, []float64{0.21484375, 0.3671875, 0.23046875, 0.1875} // §3.4, exact
	case n < 750000:
		m, lo, pi = 128, 4, []float64{0.1174, 0.2430, 0.2493, 0.1752, 0.1027, 0.1124}
	default:
		m, lo, pi = 10000, 10, []float64{0.0882, 0.2092, 0.2483, 0.1933, 0.1208, 0.0675, 0.0727}
	}
	k := len(pi) - 1
	nb := len(e) / m
	v := make([]float64, len(pi))
	for i := 0; i < nb; i++ {
		run, best := 0, 0
		for _, b := range e[i*m : (i+1)*m] {
			if b == 1 {
				run++
				best = max(best, run)
			} else {
				run = 0
			}
		}
		c := min(max(best-lo, 0), k)
		v[c]++
	}
	x2 := 0.0
	for i := range v {
		d := v[i] - float64(nb)*pi[i]
		x2 += d * d / (float64(nb) * pi[i])
	}
	return igamc(float64(k)/2, x2/2)
}

// rankGF2 is the rank over GF(2) of a matrix of rows (each row's bits in a
// word, cols ≤ 64).
func rankGF2(rows []uint64, cols int) int {
	r := 0
	for c := cols - 1; c >= 0 && r < len(rows); c-- {
		bit := uint64(1) << uint(c)
		p := -1
		for i := r; i < len(rows); i++ {
			if rows[i]&bit != 0 {
				p = i
				break
			}
		}
		if p < 0 {
			continue
		}
		rows[r], rows[p] = rows[p], rows[r]
		for i := range rows {
			if i != r && rows[i]&bit != 0 {
				rows[i] ^= rows[r]
			}
		}
		r++
	}
	return r
}

// rankProb is the probability that a random m×q matrix over GF(2) has
// rank r (§3.5).
func rankProb(r, m, q int) float64 {
	p := math.Pow(2, float64(r*(q+m-r)-m*q))
	for i := 0; i < r; i++ {
		p *= (1 - math.Pow(2, float64(i-q))) * (1 - math.Pow(2, float64(i-m))) / (1 - math.Pow(2, float64(i-r)))
	}
	return p
}

// NISTRank is the Binary Matrix Rank Test, §2.5, on m×q matrices (the
// document's 32×32; q ≤ 64).
func NISTRank(e []byte, m, q int) float64 {
	n := len(e) / (m * q)
	var full, less1, rest float64
	rows := make([]uint64, m)
	for k := 0; k < n; k++ {
		blk := e[k*m*q:]
		for i := 0; i < m; i++ {
			var w uint64
			for j := 0; j < q; j++ {
				w = w<<1 | uint64(blk[i*q+j])
			}
			rows[i] = w
		}
		switch rankGF2(rows, q) {
		case min(m, q):
			full++
		case min(m, q) - 1:
			less1++
		default:
			rest++
		}
	}
	// The probabilities of full rank and one less are the 32×32 matrices'
	// (§3.5: 0.2888, 0.5776), as the document uses them, its worked
	// example of 3×3 matrices included.
	p0 := rankProb(32, 32, 32)
	p1 := rankProb(31, 32, 32)
	p2 := 1 - p0 - p1
	N := float64(n)
	x2 := (full-p0*N)*(full-p0*N)/(p0*N) + (less1-p1*N)*(less1-p1*N)/(p1*N) + (rest-p2*N)*(rest-p2*N)/(p2*N)
	return math.Exp(-x2 / 2) // igamc(1, x2/2)
}

// fft is a radix-2 FFT of a (its length a power of two), in place.
func fft(a []complex128) {
	n := len(a)
	for i, j := 1, 0; i < n; i++ {
		bit := n >> 1
		for ; j&bit != 0; bit >>= 1 {
			j ^= bit
		}
		j ^= bit
		if i < j {
			a[i], a[j] = a[j], a[i]
		}
	}
	for size := 2; size <= n; size <<= 1 {
		w := cmplx.Exp(complex(0, -2*math.Pi/float64(size)))
		for start := 0; start < n; start += size {
			x := complex(1, 0)
			for k := 0; k < size/2; k++ {
				u, v := a[start+k], a[start+k+size/2]*x
				a[start+k], a[start+k+size/2] = u+v, u-v
				x *= w
			}
		}
	}
}

// dft is the discrete Fourier transform of x, any length: the FFT where
// the length is a power of two, else the sum itself.
func dft(x []float64) []complex128 {
	n := len(x)
	out := make([]complex128, n)
	if n&(n-1) == 0 {
		for i, v := range x {
			out[i] = complex(v, 0)
		}
		fft(out)
		return out
	}
	for k := 0; k < n/2+1; k++ {
		var s complex128
		for j, v := range x {
			s += complex(v, 0) * cmplx.Exp(complex(0, -2*math.Pi*float64(j*k)/float64(n)))
		}
		out[k] = s
	}
	return out
}

// NISTDFT is the Discrete Fourier Transform (Spectral) Test, §2.6. The
// sequence is cut to a power of two of bits when it is longer than 2¹⁴
// (the transform's length; the document's 10⁶ bits give 2¹⁹ = 524,288).
func NISTDFT(e []byte) float64 {
	if len(e) > 1<<14 {
		e = e[:1<<(bits.Len(uint(len(e)))-1)]
	}
	n := len(e)
	x := make([]float64, n)
	for i, b := range e {
		x[i] = 2*float64(b) - 1
	}
	f := dft(x)
	t := math.Sqrt(math.Log(1/0.05) * float64(n))
	n0 := 0.95 * float64(n) / 2
	n1 := 0.0
	for k := 0; k < n/2; k++ {
		if cmplx.Abs(f[k]) < t {
			n1++
		}
	}
	d := (n1 - n0) / math.Sqrt(float64(n)*0.95*0.05/4)
	return math.Erfc(math.Abs(d) / math.Sqrt2)
}

// aperiodic reports whether template b of m bits has no period: no shift
// of it overlaps itself (the templates of §2.7).
func aperiodic(b uint32, m int) bool {
	for s := 1; s < m; s++ {
		mask := uint32(1)<<uint(m-s) - 1
		if (b>>uint(s))&mask == b&mask {
			return false
		}
	}
	return true
}

// AperiodicTemplates are the aperiodic templates of m bits, in increasing
// order (148 for m = 9, as the document's templates9 file lists).
func AperiodicTemplates(m int) []uint32 {
	var out []uint32
	for b := uint32(0); b < 1<<uint(m); b++ {
		if aperiodic(b, m) {
			out = append(out, b)
		}
	}
	return out
}

// NISTNonOverlapping is the Non-overlapping Template Matching Test, §2.7,
// for template b of m bits in n blocks: one p-value.
func NISTNonOverlapping(e []byte, b uint32, m, blocks int) float64 {
	M := len(e) / blocks
	mu := float64(M-m+1) / math.Pow(2, float64(m))
	va := float64(M) * (1/math.Pow(2, float64(m)) - float64(2*m-1)/math.Pow(2, float64(2*m)))
	x2 := 0.0
	mask := uint32(1)<<uint(m) - 1
	for j := 0; j < blocks; j++ {
		blk := e[j*M : (j+1)*M]
		// w is the window of the m bits ending at i; a match moves the
		// next window's start past it (the windows do not overlap).
		w, hits, next := uint32(0), 0, 0
		for i, bit := range blk {
			w = (w<<1 | uint32(bit)) & mask
			if start := i - m + 1; start >= next && w == b {
				hits++
				next = i + 1
			}
		}
		d := float64(hits) - mu
		x2 += d * d / va
	}
	return igamc(float64(blocks)/2, x2/2)
}

// NISTOverlapping is the Overlapping Template Matching Test, §2.8: the
// template of m = 9 ones, blocks of 1,032 bits, K = 5 (the π of the
// document's revision, as its code sts-2.1.2 gives them).
func NISTOverlapping(e []byte) float64 {
	const m, M = 9, 1032
	pi := []float64{0.364091, 0.185659, 0.139381, 0.100571, 0.0704323, 0.139865}
	n := len(e) / M
	v := make([]float64, 6)
	for j := 0; j < n; j++ {
		blk := e[j*M : (j+1)*M]
		run, hits := 0, 0
		for _, b := range blk {
			if b == 1 {
				run++
				if run >= m {
					hits++
				}
			} else {
				run = 0
			}
		}
		v[min(hits, 5)]++
	}
	x2 := 0.0
	for i := range v {
		d := v[i] - float64(n)*pi[i]
		x2 += d * d / (float64(n) * pi[i])
	}
	return igamc(5.0/2, x2/2)
}

// universalStat is §2.9's fn, the mean log2 distance between a block and
// its last occurrence, and the K blocks it is over.
func universalStat(e []byte, L, q int) (float64, int) {
	k := len(e)/L - q
	last := make([]int, 1<<uint(L))
	block := func(i int) int {
		v := 0
		for _, b := range e[i*L : (i+1)*L] {
			v = v<<1 | int(b)
		}
		return v
	}
	for i := 0; i < q; i++ {
		last[block(i)] = i + 1
	}
	sum := 0.0
	for i := q; i < q+k; i++ {
		b := block(i)
		sum += math.Log2(float64(i + 1 - last[b]))
		last[b] = i + 1
	}
	return sum / float64(k), k
}

// universal's expected value and variance of the statistic by L (§2.9).
var universalE = map[int][2]float64{
	1: {0.7326495, 0.690}, 2: {1.5374383, 1.338}, 3: {2.4016068, 1.901}, 4: {3.3112247, 2.358}, 5: {4.2534266, 2.705},
	6: {5.2177052, 2.954}, 7: {6.1962507, 3.125}, 8: {7.1836656, 3.238}, 9: {8.1764248, 3.311}, 10: {9.1723243, 3.356},
	11: {10.170032, 3.384}, 12: {11.168765, 3.401}, 13: {12.168070, 3.410}, 14: {13.167693, 3.416}, 15: {14.167488, 3.419},
	16: {15.167379, 3.421},
}

// NISTUniversal is Maurer's "Universal Statistical" Test, §2.9, with L
// bits a block and q initialisation blocks (0, 0: the document's choice by
// the sequence's length, L = 7, Q = 1,280 for 10⁶ bits). σ is
// c·√(variance/K), as the document's §2.9.4 (5) and its code sts-2.1.2
// give it (its small worked example divides by √variance alone).
func NISTUniversal(e []byte, L, q int) float64 {
	if L == 0 {
		n := len(e)
		L = 5
		for _, t := range []struct{ n, l int }{{387840, 6}, {904960, 7}, {2068480, 8}, {4654080, 9}, {10342400, 10}, {22753280, 11}, {49643520, 12}, {107560960, 13}, {231669760, 14}, {496435200, 15}, {1059061760, 16}} {
			if n >= t.n {
				L = t.l
			}
		}
		q = 10 * (1 << uint(L))
	}
	fn, k := universalStat(e, L, q)
	ev := universalE[L]
	c := 0.7 - 0.8/float64(L) + (4+32/float64(L))*math.Pow(float64(k), -3/float64(L))/15
	sigma := c * math.Sqrt(ev[1]/float64(k))
	return math.Erfc(math.Abs((fn - ev[0]) / (math.Sqrt2 * sigma)))
}

// linearComplexity is the length of the shortest LFSR that makes s
// (Berlekamp–Massey).
func linearComplexity(s []byte) int {
	n := len(s)
	c, b := make([]byte, n+1), make([]byte, n+1)
	c[0], b[0] = 1, 1
	l, m := 0, -1
	t := make([]byte, n+1)
	for i := 0; i < n; i++ {
		d := s[i]
		for j := 1; j <= l; j++ {
			d ^= c[j] & s[i-j]
		}
		if d == 1 {
			copy(t, c)
			for j := 0; j+i-m <= n; j++ {
				c[j+i-m] ^= b[j]
			}
			if l <= i/2 {
				l, m = i+1-l, i
				copy(b, t)
			}
		}
	}
	return l
}

// NISTLinearComplexity is the Linear Complexity Test, §2.10, blocks of m
// bits (the document's 500).
func NISTLinearComplexity(e []byte, m int) float64 {
	pi := []float64{0.010417, 0.03125, 0.125, 0.5, 0.25, 0.0625, 0.020833}
	n := len(e) / m
	M := float64(m)
	sign := 1.0
	if m%2 == 1 {
		sign = -1
	}
	mu := M/2 + (9+(-sign))/36 - (M/3+2.0/9)/math.Pow(2, M)
	v := make([]float64, 7)
	for i := 0; i < n; i++ {
		t := sign*(float64(linearComplexity(e[i*m:(i+1)*m]))-mu) + 2.0/9
		switch {
		case t <= -2.5:
			v[0]++
		case t <= -1.5:
			v[1]++
		case t <= -0.5:
			v[2]++
		case t <= 0.5:
			v[3]++
		case t <= 1.5:
			v[4]++
		case t <= 2.5:
			v[5]++
		default:
			v[6]++
		}
	}
	x2 := 0.0
	for i := range v {
		d := v[i] - float64(n)*pi[i]
		x2 += d * d / (float64(n) * pi[i])
	}
	return igamc(3, x2/2)
}

// psi2 is the serial test's ψ²_m: the overlapping m-bit patterns (the
// sequence wrapped around), 0 for m = 0.
// cyclicCounts counts the sequence's overlapping m-bit patterns, the
// sequence read as a cycle (its first m-1 bits appended), by value.
func cyclicCounts(e []byte, m int) []float64 {
	n := len(e)
	counts := make([]float64, 1<<uint(m))
	w := 0
	mask := 1<<uint(m) - 1
	for i := 0; i < m-1; i++ {
		w = w<<1 | int(e[i])
	}
	for i := 0; i < n; i++ {
		w = (w<<1 | int(e[(i+m-1)%n])) & mask
		counts[w]++
	}
	return counts
}

func psi2(e []byte, m int) float64 {
	if m <= 0 {
		return 0
	}
	n := len(e)
	s := 0.0
	for _, c := range cyclicCounts(e, m) {
		s += c * c
	}
	return s*math.Pow(2, float64(m))/float64(n) - float64(n)
}

// NISTSerial is the Serial Test, §2.11, patterns of m bits (the
// document's 16): its two p-values.
func NISTSerial(e []byte, m int) (float64, float64) {
	p0, p1, p2 := psi2(e, m), psi2(e, m-1), psi2(e, m-2)
	d1, d2 := p0-p1, p0-2*p1+p2
	return igamc(math.Pow(2, float64(m-2)), d1/2), igamc(math.Pow(2, float64(m-3)), d2/2)
}

// phi is the approximate-entropy test's φ(m).
func phi(e []byte, m int) float64 {
	if m == 0 {
		return 0
	}
	n := len(e)
	s := 0.0
	for _, c := range cyclicCounts(e, m) {
		if c > 0 {
			p := c / float64(n)
			s += p * math.Log(p)
		}
	}
	return s
}

// NISTApproximateEntropy is the Approximate Entropy Test, §2.12, blocks of
// m bits (the document's 10).
func NISTApproximateEntropy(e []byte, m int) float64 {
	apen := phi(e, m) - phi(e, m+1)
	x2 := 2 * float64(len(e)) * (math.Ln2 - apen)
	return igamc(math.Pow(2, float64(m-1)), x2/2)
}

// NISTCumulativeSums is the Cumulative Sums (Cusum) Test, §2.13: forward
// and backward.
func NISTCumulativeSums(e []byte) (float64, float64) {
	p := func(rev bool) float64 {
		n := len(e)
		s, z := 0, 0
		for i := range e {
			b := e[i]
			if rev {
				b = e[n-1-i]
			}
			s += 2*int(b) - 1
			if a := abs(s); a > z {
				z = a
			}
		}
		N, Z := float64(n), float64(z)
		sum1 := 0.0
		for k := int(math.Floor((-N/Z + 1) / 4)); k <= int(math.Floor((N/Z-1)/4)); k++ {
			sum1 += normalCDF((4*float64(k)+1)*Z/math.Sqrt(N)) - normalCDF((4*float64(k)-1)*Z/math.Sqrt(N))
		}
		sum2 := 0.0
		for k := int(math.Floor((-N/Z - 3) / 4)); k <= int(math.Floor((N/Z-1)/4)); k++ {
			sum2 += normalCDF((4*float64(k)+3)*Z/math.Sqrt(N)) - normalCDF((4*float64(k)+1)*Z/math.Sqrt(N))
		}
		return 1 - sum1 + sum2
	}
	return p(false), p(true)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// excursions walks the sequence's ±1 sums and cuts them into cycles (from
// zero to zero): the number of cycles and, for each state x = −9…9, each
// cycle's visits to it.
func excursions(e []byte) (j int, visits [][19]int) {
	s := 0
	var cur [19]int
	for _, b := range e {
		s += 2*int(b) - 1
		if s == 0 {
			visits = append(visits, cur)
			cur = [19]int{}
			continue
		}
		if s >= -9 && s <= 9 {
			cur[s+9]++
		}
	}
	if s != 0 {
		visits = append(visits, cur)
	}
	return len(visits), visits
}

// NISTRandomExcursions is the Random Excursions Test, §2.14: a p-value for
// each state −4…−1, 1…4, none (ok false) when the walk has fewer than 500
// cycles, as the document says.
func NISTRandomExcursions(e []byte) (ps [8]float64, ok bool) {
	j, visits := excursions(e)
	if j < max(500, int(0.005*math.Sqrt(float64(len(e))))) && len(e) >= 1_000_000 {
		return ps, false
	}
	states := []int{-4, -3, -2, -1, 1, 2, 3, 4}
	for si, x := range states {
		var v [6]float64
		for _, c := range visits {
			v[min(c[x+9], 5)]++
		}
		ax := math.Abs(float64(x))
		pi := make([]float64, 6)
		pi[0] = 1 - 1/(2*ax)
		for k := 1; k <= 4; k++ {
			pi[k] = 1 / (4 * ax * ax) * math.Pow(1-1/(2*ax), float64(k-1))
		}
		pi[5] = 1 / (2 * ax) * math.Pow(1-1/(2*ax), 4)
		x2 := 0.0
		for k := range v {
			d := v[k] - float64(j)*pi[k]
			x2 += d * d / (float64(j) * pi[k])
		}
		ps[si] = igamc(5.0/2, x2/2)
	}
	return ps, true
}

// NISTRandomExcursionsVariant is the Random Excursions Variant Test,
// §2.15: a p-value for each state −9…−1, 1…9 (ok false under 500 cycles).
func NISTRandomExcursionsVariant(e []byte) (ps [18]float64, ok bool) {
	j, visits := excursions(e)
	if j < 500 && len(e) >= 1_000_000 {
		return ps, false
	}
	i := 0
	for x := -9; x <= 9; x++ {
		if x == 0 {
			continue
		}
		xi := 0
		for _, c := range visits {
			xi += c[x+9]
		}
		ps[i] = math.Erfc(math.Abs(float64(xi-j)) / math.Sqrt(2*float64(j)*(4*math.Abs(float64(x))-2)))
		i++
	}
	return ps, true
}

// NISTResult is one line of the suite's second-level analysis (§4.2), as
// the document's code (sts-2.1.2, finalAnalysisReport) prints it: one test,
// or one of its templates, states or statistics, over the sequences it ran
// on: the proportion of sequences passing at α = 0.01 against its lower
// 3σ bound (§4.2.1), and the uniformity of the p-values (§4.2.2: a
// chi-square over 10 bins, P-value_T, at least 0.0001). FalseFail is the
// probability that the line fails when the generator is random: the
// binomial's tail under the bound, plus 0.0001.
type NISTResult struct {
	Test       string  `json:"test"`
	Section    string  `json:"section"`
	Sequences  int     `json:"sequences"`
	Passed     int     `json:"passed"`
	Proportion float64 `json:"proportion"`
	MinPass    float64 `json:"min_proportion"`
	Uniformity float64 `json:"uniformity_p"`
	Pass       bool    `json:"pass"`
	FalseFail  float64 `json:"false_failure"`
	Detail     string  `json:"detail,omitempty"`
}

// NISTLines is the number of lines of the second level for sequences of
// 10⁶ bits: 15 tests, the non-overlapping template test by each of its 148
// templates, the serial test's and the cumulative sums' two statistics,
// the random excursions' 8 states and its variant's 18.
const NISTLines = 6 + 148 + 3 + 2 + 1 + 2 + 8 + 18

// NISTSuite runs every test of SP 800-22 on each sequence of bits and
// reports each line — a test, or one template, state or statistic of a
// test of several p-values — by the document's second-level analysis,
// §4.2, over its own p-values, one a sequence. (Pooling a test's p-values
// across its templates or states, as this code did before, is not the
// document's analysis: the 148 templates, the 18 states of one sequence
// are not independent, and a proportion over 148,000 p-values, its bound
// 0.99 − 0.0008, and a uniformity test of that power reject the
// approximations the p-values are computed with, not the generator.)
func NISTSuite(seqs [][]byte) []NISTResult {
	type acc struct {
		name, sec string
		ps        []float64
		skipped   int
	}
	var order []*acc
	by := map[string]*acc{}
	line := func(name, sec string) *acc {
		a := by[name]
		if a == nil {
			a = &acc{name: name, sec: sec}
			by[name] = a
			order = append(order, a)
		}
		return a
	}
	add := func(name, sec string, p float64) {
		a := line(name, sec)
		a.ps = append(a.ps, p)
	}
	templates := AperiodicTemplates(9)
	reStates := []string{"-4", "-3", "-2", "-1", "+1", "+2", "+3", "+4"}
	var rvStates []string
	for x := -9; x <= 9; x++ {
		if x != 0 {
			rvStates = append(rvStates, fmt.Sprintf("%+d", x))
		}
	}
	for _, e := range seqs {
		add("frequency", "2.1", NISTFrequency(e))
		add("block-frequency", "2.2", NISTBlockFrequency(e, 128))
		add("runs", "2.3", NISTRuns(e))
		add("longest-run", "2.4", NISTLongestRun(e))
		add("rank", "2.5", NISTRank(e, 32, 32))
		add("fft", "2.6", NISTDFT(e))
		for _, b := range templates {
			add(fmt.Sprintf("non-overlapping-template %09b", b), "2.7", NISTNonOverlapping(e, b, 9, 8))
		}
		add("overlapping-template", "2.8", NISTOverlapping(e))
		add("universal", "2.9", NISTUniversal(e, 0, 0))
		add("linear-complexity", "2.10", NISTLinearComplexity(e, 500))
		p1, p2 := NISTSerial(e, 16)
		add("serial ∇ψ²", "2.11", p1)
		add("serial ∇²ψ²", "2.11", p2)
		add("approximate-entropy", "2.12", NISTApproximateEntropy(e, 10))
		f, r := NISTCumulativeSums(e)
		add("cumulative-sums forward", "2.13", f)
		add("cumulative-sums backward", "2.13", r)
		ps, ok := NISTRandomExcursions(e)
		for i, x := range reStates {
			if a := line("random-excursions x = "+x, "2.14"); ok {
				a.ps = append(a.ps, ps[i])
			} else {
				a.skipped++
			}
		}
		vs, ok := NISTRandomExcursionsVariant(e)
		for i, x := range rvStates {
			if a := line("random-excursions-variant x = "+x, "2.15"); ok {
				a.ps = append(a.ps, vs[i])
			} else {
				a.skipped++
			}
		}
	}
	var out []NISTResult
	for _, a := range order {
		out = append(out, secondLevel(a.name, a.sec, a.ps, a.skipped))
	}
	return out
}

// secondLevel is §4.2's analysis of one line's p-values.
func secondLevel(name, sec string, ps []float64, skipped int) NISTResult {
	r := NISTResult{Test: name, Section: sec, Sequences: len(ps)}
	for _, p := range ps {
		if p >= 0.01 {
			r.Passed++
		}
	}
	m := len(ps)
	if m > 0 {
		r.Proportion = float64(r.Passed) / float64(m)
		r.MinPass = 0.99 - 3*math.Sqrt(0.99*0.01/float64(m))
		r.Uniformity = uniformity(ps)
		r.FalseFail = binomialBelow(m, 0.99, r.MinPass)
		if m >= 55 {
			r.FalseFail += 0.0001
		}
	}
	r.Pass = m > 0 && r.Proportion >= r.MinPass && (m < 55 || r.Uniformity >= 0.0001)
	if m < 55 {
		r.Detail = fmt.Sprintf("%d p-values: too few for the uniformity test (55, §4.2.2)", m)
	}
	if skipped > 0 {
		r.Detail = fmt.Sprintf("%d sequences with fewer than 500 cycles, not tested (§2.14.7)", skipped)
	}
	return r
}

// binomialBelow is P(X/m < bound) for X binomial (m, p).
func binomialBelow(m int, p, bound float64) float64 {
	s := 0.0
	lm, _ := math.Lgamma(float64(m + 1))
	for x := 0; x <= m; x++ {
		if float64(x)/float64(m) >= bound {
			break
		}
		lx, _ := math.Lgamma(float64(x + 1))
		ly, _ := math.Lgamma(float64(m - x + 1))
		s += math.Exp(lm - lx - ly + float64(x)*math.Log(p) + float64(m-x)*math.Log1p(-p))
	}
	return s
}

// NISTFamilyLevel is the chance that a random generator fails the suite
// as the kit judges it (NISTRun.Pass): at most that often does a lab-size
// run fail by chance.
const NISTFamilyLevel = 0.001

// allowedFailures is the number K of lines that may fail, the smallest
// with P(more than K lines fail) ≤ level when each line fails by chance
// with its own probability, independently (the count's Poisson-binomial
// law); and that probability.
func allowedFailures(lines []NISTResult, level float64) (int, float64) {
	dist := []float64{1} // P(k lines failed)
	for _, l := range lines {
		next := make([]float64, len(dist)+1)
		for k, v := range dist {
			next[k] += v * (1 - l.FalseFail)
			next[k+1] += v * l.FalseFail
		}
		dist = next
	}
	tail := 1.0 // P(F > K)
	for k, v := range dist {
		tail -= v
		if tail <= level {
			return k, max(tail, 0)
		}
	}
	return len(lines), 0
}

// uniformity is §4.2.2's P-value_T: the p-values in 10 bins against
// uniform, chi-square with 9 df.
func uniformity(ps []float64) float64 {
	var f [10]float64
	for _, p := range ps {
		f[min(int(p*10), 9)]++
	}
	e := float64(len(ps)) / 10
	x2 := 0.0
	for _, c := range f {
		x2 += (c - e) * (c - e) / e
	}
	return igamc(9.0/2, x2/2)
}

// StreamBits reads n bits from r, each byte's bits from the most
// significant, as the suite's reference code reads a binary file.
func StreamBits(r io.Reader, n int) []byte {
	buf := make([]byte, (n+7)/8)
	io.ReadFull(r, buf)
	out := make([]byte, n)
	for i := range out {
		out[i] = buf[i/8] >> uint(7-i%8) & 1
	}
	return out
}

// NISTBits is the length of each sequence the kit tests: the document's
// 10⁶ bits.
const NISTBits = 1_000_000

// LabNIST is a laboratory's count of sequences (the document's §4.2
// examples use 1,000).
const LabNIST = 1000

// NISTRun is the suite over the shoe generator: each sequence the first
// 10⁶ bits of a ChaCha8 stream of its own seed, as each shoe's generator
// is; the seeds drawn from a ChaCha8 stream of the kit's master seed, so
// that the run can be repeated.
//
// Its verdict is over the family of lines: each line of §4.2 fails by
// chance with its FalseFail (about 0.0036 at 1,000 sequences), so that a
// random generator fails at least one of the 188 lines about half the
// time (AnyLineFalseFail). The suite passes when at most Allowed lines
// fail, Allowed the fewest with a chance of more failing by chance of at
// most NISTFamilyLevel (FamilyFalseFail, counting the lines independent).
type NISTRun struct {
	Sequences int          `json:"sequences"`
	Bits      int          `json:"bits"`
	Source    string       `json:"source"`
	Results   []NISTResult `json:"results"`
	// Failed is the number of lines that failed, Allowed how many may.
	Failed           int     `json:"failed_lines"`
	Allowed          int     `json:"allowed_lines"`
	AnyLineFalseFail float64 `json:"any_line_false_failure"`
	FamilyFalseFail  float64 `json:"family_false_failure"`
}

// judge counts the failed lines and sets the family's allowance.
func (r *NISTRun) judge() {
	r.Failed = 0
	none := 1.0
	for _, t := range r.Results {
		if !t.Pass {
			r.Failed++
		}
		none *= 1 - t.FalseFail
	}
	r.AnyLineFalseFail = 1 - none
	r.Allowed, r.FamilyFalseFail = allowedFailures(r.Results, NISTFamilyLevel)
}

// Pass reports whether the suite passed: at most Allowed of its lines
// failed.
func (r *NISTRun) Pass() bool {
	if len(r.Results) == 0 {
		return false
	}
	failed := 0
	for _, t := range r.Results {
		if !t.Pass {
			failed++
		}
	}
	allowed, _ := allowedFailures(r.Results, NISTFamilyLevel)
	return failed <= allowed
}

// RunNIST runs the suite on sequences sequences, each the generator stream
// of a shoe seed drawn from master (as NewShoeShuffler draws them).
func RunNIST(sequences int, master shoe.Seed) *NISTRun {
	seeds := NewShoeShuffler(1, master)
	var seqs [][]byte
	for i := 0; i < sequences; i++ {
		seqs = append(seqs, StreamBits(RawStream(seeds.nextSeed()), NISTBits))
	}
	r := &NISTRun{Sequences: sequences, Bits: NISTBits,
		Source:  "each sequence the first 10⁶ bits of ChaCha8 (math/rand/v2) of its own 32-byte shoe seed, the seeds drawn from a ChaCha8 stream of the kit's master seed; 64-bit outputs little-endian, each byte from its most significant bit",
		Results: NISTSuite(seqs)}
	r.judge()
	return r
}
