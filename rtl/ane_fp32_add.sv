// ane_fp32_add: one node of the planar reduction tree (NUMERICS N-4.4): y = RNE_fp32(a + b).
// Combinational.
//   - gradual underflow (fp32 denormals kept), overflow to inf;
//   - inf + finite = inf, inf + (-inf) = +0 (N-4.2); a NaN operand (the engine never makes one)
//     counts as +inf (N-1.1);
//   - every zero result is +0 (a -0 operand is a zero like any other), as tb/oracle ReduceNode.
//
// Datapath: order the operands by magnitude, align the smaller one with three extra bits
// (guard, round, sticky), add or subtract, normalize (one step right after a carry, or left by
// the leading zeros but never below exponent 1), round to nearest even, pack.
`default_nettype none

module ane_fp32_add (
  input  wire logic [31:0] a_i,
  input  wire logic [31:0] b_i,
  output      logic [31:0] y_o
);

  function automatic logic [4:0] lzc27(logic [26:0] v);
    logic [4:0] n;
    n = 5'd27;
    for (int i = 0; i < 27; i++) if (v[i]) n = 5'(26 - i);
    lzc27 = n;
  endfunction

  logic        a_inf, b_inf, a_sign, b_sign;
  logic [7:0]  a_e, b_e, big_e, small_e, d;
  logic [23:0] a_sig, b_sig, big_sig, small_sig;
  logic        big_sign, small_sign, sub, swap;
  logic [26:0] small_al;
  logic        sticky;
  logic [27:0] sum;
  logic [26:0] norm;
  logic [9:0]  e;
  logic [4:0]  lz, lshift;
  logic [24:0] mant;
  logic        inc;

  always_comb begin
    a_inf  = a_i[30:23] == 8'hFF;
    b_inf  = b_i[30:23] == 8'hFF;
    a_sign = a_i[31] && !(a_inf && a_i[22:0] != 23'd0);  // NaN -> +inf
    b_sign = b_i[31] && !(b_inf && b_i[22:0] != 23'd0);
    a_e    = (a_i[30:23] == 8'd0) ? 8'd1 : a_i[30:23];
    b_e    = (b_i[30:23] == 8'd0) ? 8'd1 : b_i[30:23];
    a_sig  = {a_i[30:23] != 8'd0, a_i[22:0]};
    b_sig  = {b_i[30:23] != 8'd0, b_i[22:0]};

    swap       = {b_e, b_sig} > {a_e, a_sig};
    big_e      = swap ? b_e : a_e;
    big_sig    = swap ? b_sig : a_sig;
    big_sign   = swap ? b_sign : a_sign;
    small_e    = swap ? a_e : b_e;
    small_sig  = swap ? a_sig : b_sig;
    small_sign = swap ? a_sign : b_sign;
    sub        = big_sign != small_sign;

    d = big_e - small_e;
    if (d >= 8'd27) begin
      small_al = 27'd0;
      sticky   = small_sig != 24'd0;
    end else begin
      small_al = {small_sig, 3'b000} >> d;
      sticky   = ({small_sig, 3'b000} & ~(27'h7FFFFFF << d)) != 27'd0;
    end
    // The sticky bit joins the last extra bit (it is below the round bit for every d >= 2, and
    // zero for d <= 1, where nothing is shifted out).
    small_al[0] = small_al[0] | sticky;

    sum = sub ? ({1'b0, big_sig, 3'b000} - {1'b0, small_al}) : ({1'b0, big_sig, 3'b000} + {1'b0, small_al});
    e   = {2'b00, big_e};
    lz  = 5'd0;
    lshift = 5'd0;
    if (sum[27]) begin
      norm = {sum[27:2], sum[1] | sum[0]};
      e    = e + 10'd1;
    end else begin
      lz     = lzc27(sum[26:0]);
      lshift = ({5'd0, lz} >= {2'd0, big_e} - 10'd1) ? 5'(big_e - 8'd1) : lz;
      norm   = sum[26:0] << lshift;
      e      = e - {5'd0, lshift};
    end
    inc  = norm[2] && (norm[1] || norm[0] || norm[3]);
    mant = {1'b0, norm[26:3]} + {24'd0, inc};
    if (mant[24]) begin
      mant = {1'b0, mant[24:1]};
      e    = e + 10'd1;
    end

    if (a_inf || b_inf) begin
      if (a_inf && b_inf && a_sign != b_sign) y_o = 32'h0000_0000;
      else y_o = {a_inf ? a_sign : b_sign, 8'hFF, 23'd0};
    end else if (mant == 25'd0) begin
      y_o = 32'h0000_0000;
    end else if (e >= 10'd255) begin
      y_o = {big_sign, 8'hFF, 23'd0};
    end else begin
      y_o = {big_sign, mant[23] ? e[7:0] : 8'd0, mant[22:0]};
    end
  end

endmodule
