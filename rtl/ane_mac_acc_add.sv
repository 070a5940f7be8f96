// SPDX-License-Identifier: Apache-2.0
// ane_mac_acc_add: the accumulator step of one MAC slot, m1, in narrow form (NUMERICS N-2.5,
// N-2.6, N-2.9).
//   accumulate:   acc_o = RNE_fp32(acc_i + t_i); then, when ceiling_i is set and the result is
//                 finite with |RNE_fp16(acc_o)| >= 32768 (|acc_o| >= 32760), inf with its sign.
//                 inf + finite = inf, inf + (-inf) = +0, zero results are +0, an fp32 NaN in
//                 acc_i (a loaded value) is +inf (N-1.1).
//   compare:      cmp_i: acc_o = max_i ? max(acc, t) : min(acc, t), or t when !hv_i; the slot
//                 value canonical (NaN -> +inf, -0 -> +0), t the data value (an fp16 value).
//   integer:      int_i: acc_o = sat32(acc_i + q), q = t_i.sig[17:0] as a two's complement
//                 integer quad (N-2.8), ovf_o = the sum left the int32 range (then acc_o is
//                 INT32_MAX or INT32_MIN).
// An ordinary floating-point adder with guard, round and sticky bits, four stages; Pipe = 1 puts
// a register (enable en_i) after each of the first three, Pipe = 0 makes it combinational.
//   a  decode, order the operands by magnitude, compare-mode decision, exponent difference
//   b  align the smaller in a 28-bit window with a jam bit, add or subtract (integer: the same
//      adder adds acc's low 24 bits and q sign-extended to 24 bits)
//   c  normalize (one step right on a carry, or the leading zeros away); integer: passes
//   d  the exponent (minus the leading zeros), round to nearest even, pack, overflow, the port
//      ceiling; integer: acc's high 8 bits (carried in the exponent field) step by the low
//      sum's carry (-1, 0 or +1), and an int32 overflow (a step past 0x7F or 0x80) saturates
// The window: the larger operand's 24-bit significand sits at bits 26..3, so it is a multiple of
// 8 units; the smaller's bits below bit 0 become one jam bit. Whenever bits were jammed
// (exponent difference >= 2) the sum keeps its msb at bit 25 or above, so the rounding step is
// at least 4 units and the jammed sum rounds like the exact one; with difference <= 1 nothing is
// jammed and the sum is exact (docs/mac_lane.md).
// Precondition (m1): t_i is zero or at least 2^-40 in magnitude (an add12 quad of products of
// normal fp16 values, or an fp16 value), so a sum never falls into the fp32 denormal range; a
// denormal acc_i is only ever the smaller operand or passed through unchanged.
`default_nettype none

module ane_mac_acc_add #(
  parameter bit Pipe = 1'b0
) (
  input  wire logic             clk_i,
  input  wire logic             en_i,
  input  wire logic [31:0]      acc_i,
  input  wire ane_pkg::mac_fv_t t_i,
  input  wire logic             ceiling_i,
  input  wire logic             cmp_i,
  input  wire logic             max_i,
  input  wire logic             hv_i,
  input  wire logic             int_i,
  output      logic [31:0]      acc_o,
  output      logic             ovf_o
);

  typedef struct packed {
    logic       sp;       // an operand is infinite (accumulate): sp_zero ? +0 : inf(sp_sign)
    logic       sp_zero;
    logic       sp_sign;
    logic       sign;     // the result's sign (the larger operand's)
    logic [8:0] e;        // the larger operand's biased fp32 exponent field
    logic       pass;     // one operand is +0 (or compare mode): the result is the other, as is
    logic       ceiling;
    logic       int_;     // integer accumulate
  } side_t;

  // ------------------------------------------------------------------ a: decode and order
  logic        a_nan, a_inf, a_zero, a_sign;
  logic [7:0]  a_e8, a_ex, t_e8;
  logic [23:0] a_sig, t_sig;
  logic [30:0] ka, kt;
  logic        t_ge, t_eq, d_gt_a, d_lt_a, take_d, use_t;
  logic [7:0]  dt, da;
  side_t       a_side;
  logic [23:0] a_big;     // integer: acc_i's low 24 bits
  logic [23:0] a_small;   // integer: q sign-extended
  logic [4:0]  a_d;
  logic        a_sub;

  always_comb begin
    a_e8   = acc_i[30:23];
    a_nan  = (a_e8 == 8'hFF) && (acc_i[22:0] != 23'd0);
    a_inf  = (a_e8 == 8'hFF);
    a_zero = (acc_i[30:0] == 31'd0);
    a_sign = acc_i[31] && !a_nan && !a_zero;             // canonical: NaN -> +inf, -0 -> +0
    a_ex   = (a_e8 == 8'h00) ? 8'd1 : a_e8;              // a denormal's scale
    a_sig  = (a_inf && !int_i) ? 24'd0 : {int_i ? acc_i[23] : (a_e8 != 8'h00), acc_i[22:0]};  // integer: acc_i[23:0]
    t_e8   = t_i.inf ? 8'hFF : (t_i.zero ? 8'h00 : 8'({1'b0, t_i.e} + 8'd63));
    t_sig  = {t_i.sig, 2'b00};

    // Magnitudes as {exponent field, fraction}: zeros smallest, denormals below normals,
    // infinities largest (a NaN is +inf).
    ka   = {a_e8, a_nan ? 23'd0 : acc_i[22:0]};
    kt   = {t_e8, t_i.sig[20:0], 2'b00};
    t_ge = kt >= ka;
    t_eq = kt == ka;

    // Compare mode (N-2.9): signs first, then magnitudes.
    d_gt_a = (t_i.sign != a_sign) ? !t_i.sign : (t_i.sign ? !t_ge : (t_ge && !t_eq));
    d_lt_a = (t_i.sign != a_sign) ?  t_i.sign : (t_i.sign ? (t_ge && !t_eq) : !t_ge);
    take_d = !hv_i || (max_i ? d_gt_a : d_lt_a);

    a_side.pass    = cmp_i || t_i.zero || a_zero || int_i;  // integer: no fp rounding after b
    use_t          = !int_i && (cmp_i ? take_d : (a_side.pass ? a_zero : t_ge));
    a_side.sp      = !cmp_i && !int_i && (a_inf || t_i.inf);
    a_side.sp_zero = a_inf && t_i.inf && (a_sign != t_i.sign);
    a_side.sp_sign = a_inf ? a_sign : t_i.sign;
    a_side.sign    = int_i ? t_i.sig[17] : (use_t ? t_i.sign : a_sign);  // integer: q < 0
    a_side.e       = {1'b0, int_i ? acc_i[31:24] : (use_t ? t_e8 : a_e8)};
    a_side.ceiling = ceiling_i && !cmp_i;
    a_side.int_    = int_i;
    a_big          = use_t ? t_sig : a_sig;
    a_small        = int_i ? {{6{t_i.sig[17]}}, t_i.sig[17:0]} : (a_side.pass ? 24'd0 : (use_t ? a_sig : t_sig));
    dt             = t_e8 - a_ex;  // both differences at once; the order picks one
    da             = a_ex - t_e8;
    a_d            = int_i ? 5'd0 : (use_t ? ((dt > 8'd31) ? 5'd31 : dt[4:0]) : ((da > 8'd31) ? 5'd31 : da[4:0]));
    a_sub          = !int_i && (t_i.sign != a_sign);
  end

  side_t       b_side;
  logic [23:0] b_big, b_small;
  logic [4:0]  b_d;
  logic        b_sub;

  // ------------------------------------------------------------------ b: align and add
  logic [26:0] y27, yshift, ymask;
  logic [27:0] wx, wy, b_sum;

  always_comb begin
    y27    = {b_small, 3'b000};
    yshift = y27 >> b_d;
    ymask  = ~({27{1'b1}} << b_d);
    wx     = {1'b0, b_big, 3'b000};
    wy     = {1'b0, yshift[26:1], yshift[0] | ((y27 & ymask) != 27'd0)};
    b_sum  = b_sub ? (wx - wy) : (wx + wy);
  end

  side_t       c_side;
  logic [27:0] c_sum;

  // ------------------------------------------------------------------ c: normalize
  logic [31:0] nrm_x;
  logic [4:0]  nrm_n, c_nz;
  logic [26:0] c_n;
  logic [8:0]  c_eb;
  logic        c_zero;

  // The exponent is e - nz: stage d subtracts, beside its increment.
  ane_mac_norm #(.Width(32)) u_norm (.v_i({c_sum[26:0], 5'd0}), .x_o(nrm_x), .n_o(nrm_n));
  always_comb begin
    c_zero = !c_side.pass && (c_sum == 28'd0);
    if (c_side.pass) begin
      c_n  = c_sum[26:0];
      c_eb = c_side.e;
      c_nz = 5'd0;
    end else if (c_sum[27]) begin
      c_n  = {c_sum[27:2], c_sum[1] | c_sum[0]};
      c_eb = c_side.e + 9'd1;
      c_nz = 5'd0;
    end else begin
      c_n  = nrm_x[31:5];
      c_eb = c_side.e;
      c_nz = nrm_n;
    end
  end

  // The rounding decision is taken here, from the normalized value; stage d increments, and
  // finds the overflow and the port ceiling beside the increment, from the same values.
  logic c_inc;
  assign c_inc = !c_side.pass && c_n[2] && (c_n[1] || c_n[0] || c_n[3]);

  side_t       d_side;
  logic [26:0] d_n;
  logic [8:0]  d_eb, d_e;
  logic [4:0]  d_nz;
  logic        d_zero, d_inc, d_icarry;

  // ------------------------------------------------------------------ d: round and pack
  logic [24:0] d_sr;
  logic [7:0]  d_ef;
  logic [22:0] d_frac;
  logic        d_ones, d_ovf, d_ceil;
  // integer: acc = {hi, lo}; lo + q (q sign-extended to 24 bits) sits in d_n[26:3] with its carry
  // in d_icarry; the true sum's high part is hi + carry - (q < 0), a step of -1, 0 or +1.
  logic        d_iinc, d_idec, d_iovf;
  logic [7:0]  d_ihi;

  always_comb begin
    d_e    = d_eb - {4'd0, d_nz};
    d_sr   = {1'b0, d_n[26:3]} + {24'd0, d_inc};
    d_ef   = d_e[7:0] + {7'd0, d_sr[24]};
    d_frac = d_sr[24] ? 23'd0 : d_sr[22:0];  // a carry leaves 1.000...
    d_ones = d_n[26:3] == 24'hFF_FFFF;       // the increment carries into the exponent
    d_ovf  = (d_e >= 9'd255) || ((d_e == 9'd254) && d_ones && d_inc);
    // N-2.6 accumulator-port ceiling: RNE_fp16(acc) >= 32768 exactly when |acc| >= 32760, the
    // fp32 value 0x46FFF000 (exponent field 141, fraction 0x7FF000).
    d_ceil = d_side.ceiling && ((d_e > 9'd141) ||
             ((d_e == 9'd141) && ((d_n[25:15] == 11'h7FF) || ((d_n[25:3] == 23'h7F_EFFF) && d_inc))));
    d_iinc = d_icarry && !d_side.sign;
    d_idec = !d_icarry && d_side.sign;
    d_ihi  = d_eb[7:0] + {{7{d_idec}}, d_iinc || d_idec};
    d_iovf = (d_iinc && (d_eb[7:0] == 8'h7F)) || (d_idec && (d_eb[7:0] == 8'h80));
    ovf_o  = d_side.int_ && d_iovf;
    if (d_side.int_) begin
      acc_o = d_iovf ? {d_idec, {31{d_iinc}}} : {d_ihi, d_n[26:3]};
    end else if (d_side.sp) begin
      acc_o = d_side.sp_zero ? 32'd0 : {d_side.sp_sign, 8'hFF, 23'd0};
    end else if (d_zero) begin
      acc_o = 32'd0;
    end else if (d_ovf || d_ceil) begin
      acc_o = {d_side.sign, 8'hFF, 23'd0};
    end else begin
      acc_o = {d_side.sign, d_ef, d_frac};
    end
  end

  // ------------------------------------------------------------------ pipeline registers
  // The pipeline registers (ane_pipe_reg: Pipe = 1, registers with enable en_i and no reset;
  // Pipe = 0, wires).
  ane_pipe_reg #(.W($bits({b_side, b_big, b_small, b_d, b_sub})), .Pipe(Pipe)) u_b (
    .clk_i, .en_i, .d_i({a_side, a_big, a_small, a_d, a_sub}),
    .q_o({b_side, b_big, b_small, b_d, b_sub})
  );
  ane_pipe_reg #(.W($bits({c_side, c_sum})), .Pipe(Pipe)) u_c (
    .clk_i, .en_i, .d_i({b_side, b_sum}),
    .q_o({c_side, c_sum})
  );
  ane_pipe_reg #(.W($bits({d_side, d_n, d_eb, d_nz, d_zero, d_inc, d_icarry})), .Pipe(Pipe)) u_d (
    .clk_i, .en_i, .d_i({c_side, c_n, c_eb, c_nz, c_zero, c_inc, c_sum[27]}),
    .q_o({d_side, d_n, d_eb, d_nz, d_zero, d_inc, d_icarry})
  );

  logic unused_nrm;
  assign unused_nrm = ^{nrm_x[4:0], d_side.e, d_side.pass, d_n[2:0], d_sr[23]};

endmodule

`default_nettype wire
