// ane_sig_mul: the one significand multiplier of a MAC lane (NUMERICS N-2.2, N-2.8), split in
// its two halves so that the lane can put a pipeline register between the partial products and
// their sum. Combinational, exact.
//   lo_o = a_lo_i x b_lo_i   (11 x 6 bits)
//   hi_o = a_hi_i x b_hi_i   (11 x 5 bits)
// An 11 x 11 product a x b is lo + (hi << 6) with a_lo = a_hi = a, b_lo = b[5:0], b_hi = b[10:6]:
// fp16 significands (hidden bit included) and int8 magnitudes (at most 128) both fit. In int4
// mode each half multiplies two packed int4 magnitudes, 7 bits apart, by the kernel magnitude
// (ane_mac_mul), so the four int4 products come out of the same array.
`default_nettype none

module ane_sig_mul (
  input  wire logic [10:0] a_lo_i,
  input  wire logic [5:0]  b_lo_i,
  input  wire logic [10:0] a_hi_i,
  input  wire logic [4:0]  b_hi_i,
  output      logic [16:0] lo_o,
  output      logic [15:0] hi_o
);

  assign lo_o = 17'(a_lo_i) * 17'(b_lo_i);
  assign hi_o = 16'(a_hi_i) * 16'(b_hi_i);

endmodule

`default_nettype wire
