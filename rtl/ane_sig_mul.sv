// SPDX-License-Identifier: Apache-2.0
// ane_sig_mul: the one significand multiplier of a MAC lane (NUMERICS N-2.2, N-2.8), split in
// its two halves so that the lane can put a pipeline register between the partial products and
// their sum. Combinational, exact.
//   lo_o = a_lo_i x b_lo_i   (11 x 6 bits)
//   hi_o = a_hi_i x b_hi_i   (11 x 5 bits)
// An 11 x 11 product a x b is lo + (hi << 6) with a_lo = a_hi = a, b_lo = b[5:0], b_hi = b[10:6]:
// fp16 significands (hidden bit included) and int8 magnitudes (at most 128) both fit. In int4
// mode each half multiplies two packed int4 magnitudes, 7 bits apart, by the kernel magnitude
// (ane_mac_mul), so the four int4 products come out of the same array.
// Each half reduces its partial products with a tree of carry-save adders (3:2, three levels)
// and one carry-propagate adder, so the depth grows with the log of the rows, not the rows.
`default_nettype none

module ane_sig_mul (
  input  wire logic [10:0] a_lo_i,
  input  wire logic [5:0]  b_lo_i,
  input  wire logic [10:0] a_hi_i,
  input  wire logic [4:0]  b_hi_i,
  output      logic [16:0] lo_o,
  output      logic [15:0] hi_o
);

  // ---- lo: six rows ----
  logic [16:0] l0, l1, l2, l3, l4, l5;        // partial products
  logic [16:0] ls1, lc1, ls2, lc2, ls3, lc3, ls4, lc4;
  always_comb begin
    l0 = {6'd0, a_lo_i & {11{b_lo_i[0]}}};
    l1 = {6'd0, a_lo_i & {11{b_lo_i[1]}}} << 1;
    l2 = {6'd0, a_lo_i & {11{b_lo_i[2]}}} << 2;
    l3 = {6'd0, a_lo_i & {11{b_lo_i[3]}}} << 3;
    l4 = {6'd0, a_lo_i & {11{b_lo_i[4]}}} << 4;
    l5 = {6'd0, a_lo_i & {11{b_lo_i[5]}}} << 5;
    // level 1: rows 0-2 and 3-5
    ls1 = l0 ^ l1 ^ l2;
    lc1 = ((l0 & l1) | (l0 & l2) | (l1 & l2)) << 1;
    ls2 = l3 ^ l4 ^ l5;
    lc2 = ((l3 & l4) | (l3 & l5) | (l4 & l5)) << 1;
    // level 2: three of the four rows
    ls3 = ls1 ^ lc1 ^ ls2;
    lc3 = ((ls1 & lc1) | (ls1 & ls2) | (lc1 & ls2)) << 1;
    // level 3: the last three
    ls4 = ls3 ^ lc3 ^ lc2;
    lc4 = ((ls3 & lc3) | (ls3 & lc2) | (lc3 & lc2)) << 1;
    lo_o = ls4 + lc4;
  end

  // ---- hi: five rows ----
  logic [15:0] h0, h1, h2, h3, h4;
  logic [15:0] hs1, hc1, hs2, hc2, hs3, hc3;
  always_comb begin
    h0 = {5'd0, a_hi_i & {11{b_hi_i[0]}}};
    h1 = {5'd0, a_hi_i & {11{b_hi_i[1]}}} << 1;
    h2 = {5'd0, a_hi_i & {11{b_hi_i[2]}}} << 2;
    h3 = {5'd0, a_hi_i & {11{b_hi_i[3]}}} << 3;
    h4 = {5'd0, a_hi_i & {11{b_hi_i[4]}}} << 4;
    hs1 = h0 ^ h1 ^ h2;
    hc1 = ((h0 & h1) | (h0 & h2) | (h1 & h2)) << 1;
    hs2 = hs1 ^ hc1 ^ h3;
    hc2 = ((hs1 & hc1) | (hs1 & h3) | (hc1 & h3)) << 1;
    hs3 = hs2 ^ hc2 ^ h4;
    hc3 = ((hs2 & hc2) | (hs2 & h4) | (hc2 & h4)) << 1;
    hi_o = hs3 + hc3;
  end

endmodule

`default_nettype wire
