// ane_sig_mul: the shared unsigned significand multiplier of a MAC lane (NUMERICS N-2.2).
// 11 x 11 bits -> 22 bits, exact. fp16 significands (hidden bit included) and int8
// magnitudes (at most 128) both fit the 11-bit inputs, so one array serves every mode.
`default_nettype none

module ane_sig_mul (
  input  wire logic [10:0] a_i,
  input  wire logic [10:0] b_i,
  output      logic [21:0] p_o
);

  assign p_o = 22'(a_i) * 22'(b_i);

endmodule

`default_nettype wire
