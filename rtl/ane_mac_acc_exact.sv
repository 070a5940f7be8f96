// SPDX-License-Identifier: Apache-2.0
// ane_mac_acc_exact: the accumulator step of one MAC slot for an exact quad sum, m5 (NUMERICS
// N-2.4 m5 [assumption]: quads are exact; N-2.5, N-2.6). Used by the m5 lane only: m1 uses the
// narrow ane_mac_acc_add.
//   acc_o = RNE_fp32(acc_i + t_i), then, when ceiling_i is set and |RNE_fp16(acc_o)| >= 32768
//   (i.e. |acc_o| >= 32760), acc_o becomes inf with its sign. inf + finite = inf,
//   inf + (-inf) = +0, zero results are +0. An fp32 NaN in acc_i (a loaded value) acts as +inf
//   (N-1.1).
//
// A two-path floating-point adder, six stages. Pipe = 0 makes it combinational (acc_i, t_i and
// ceiling_i together). Pipe = 1 puts a register (enable en_i) after each of stages a..e: t_i
// enters stage a, acc_i and ceiling_i enter stage c two cycles later, acc_o leaves stage f
// (three registers after acc_i, five after t_i). In the m5 lane: a = L4, b = L5, c..f = L6..L9,
// so the accumulator is read in L5 and written in L9 as in m1 (docs/mac_lane.md).
//   a  t alone: its leading and trailing zero counts (t is a fixed-point magnitude, lsb 2^-48)
//   b  t alone: normalized (Mt[82] = 1), its exponent et and Mt's trailing zero count
//   c  acc_i decoded; the exponent difference d = et - ea picks the larger operand ("big", at the
//      top of an 85-bit window: bit 83 has its exponent E) and the shift of the other ("small");
//      the near path is an effective subtraction with |d| <= 1, its small operand shifted by
//      |d| (0 or 1, nothing lost), and which of the two is larger (a compare); infinities, t = 0
//   d  far path: the small operand aligned (shifted right by |d|), the bits shifted out become
//      one jam bit at bit 0. Near path: the shifted small operand subtracted both ways, the
//      exact difference D = |big - small| chosen by stage c's compare, and D's trailing zero
//      count (that of big ^ small)
//   e  far path: big + small or big - small (the msb lands on bit 84, 83 or 82: the sum never
//      needs more than a 2-step normalization); the sticky bits below the rounding position of
//      each of the three cases from the operands (x - y = 0 mod 2^k iff x = y mod 2^k;
//      x + y = 0 mod 2^k iff x ^ y = (x | y) << 1 mod 2^k), beside the adder. Near path: D's
//      leading zeros and D shifted by them; its sticky bit from the two counts. Both: the
//      24-bit significand, the exponent and the round-to-nearest-even decision
//   f  the increment, pack, the specials; overflow to inf and the port ceiling beside it
// Why the window is exact enough: the larger operand sits whole in the window (t has at most
// 83 significant bits, acc 24). The smaller loses bits only when |d| >= 2 (t: |d| >= 2, acc:
// d >= 61); then the sum's msb is at bit 82 or above, its rounding step at least 2^59 units,
// and the jammed sum rounds like the exact one (docs/mac_lane.md, item 2 of the m1 reasons).
// With |d| <= 1 nothing is shifted out and D is exact. Results are never fp32 denormals: a
// nonzero t is at least 2^-48, so a nonzero sum with it is at least 2^-72; t = 0 passes acc_i
// (a loaded denormal passes unchanged).
`default_nettype none

module ane_mac_acc_exact #(
  parameter bit Pipe = 1'b0
) (
  input  wire logic                clk_i,
  input  wire logic                en_i,
  input  wire logic [31:0]         acc_i,
  input  wire ane_pkg::mac_exact_t t_i,
  input  wire logic                ceiling_i,
  output      logic [31:0]         acc_o
);

  // ------------------------------------------------------------------ a: t's zero counts
  // (The zero counts are ane_lzc's binary trees: each level its own vector of at most 64 bits,
  // which keeps the Verilated model fast.)
  logic [127:0] a_lzin, a_tzin;
  logic [6:0]   a_lz, a_tz;
  logic         a_zero;
  logic         a_tzero;  // (t's zero flag is a_zero)
  assign a_lzin = {t_i.mag, 45'd0};
  assign a_tzin = {45'd0, t_i.mag};
  ane_lzc #(.W(128)) u_alz (.v_i(a_lzin), .n_o(a_lz), .zero_o(a_zero));
  ane_lzc #(.W(128), .Trailing(1'b1)) u_atz (.v_i(a_tzin), .n_o(a_tz), .zero_o(a_tzero));

  ane_pkg::mac_exact_t b_t;
  logic [6:0]          b_lz, b_tz;
  logic                b_zero;

  // ------------------------------------------------------------------ b: t normalized
  logic [82:0]        b_mt;
  logic signed [9:0]  b_et;
  logic [6:0]         b_tzm;
  always_comb begin
    b_mt  = b_t.mag << b_lz;
    b_et  = 10'sd34 - $signed({3'd0, b_lz});  // bit 82 of mag weighs 2^34
    b_tzm = b_tz + b_lz;
  end

  logic [82:0]        c_mt;
  logic signed [9:0]  c_et;
  logic [6:0]         c_tzm;
  logic               c_tinf, c_tsign, c_tzero;

  // ------------------------------------------------------------------ c: decode, order
  logic [7:0]         c_ae8;
  logic               c_anan, c_ainf, c_azero, c_asign;
  logic [23:0]        c_a;
  logic signed [9:0]  c_ea;
  logic signed [10:0] c_dt, c_da;  // et - ea, ea - et
  logic               c_tbig;
  logic [7:0]         c_sa8;
  logic [31:0]        c_tzin;
  logic [4:0]         c_tza;
  logic               c_tzz;  // (unused: a zero acc has ea = -126, its count is never read)
  assign c_tzin = {8'd0, acc_i[30:23] != 8'h00, acc_i[22:0]};
  ane_lzc #(.W(32), .Trailing(1'b1)) u_ctz (.v_i(c_tzin), .n_o(c_tza), .zero_o(c_tzz));
  // to stage d
  logic [84:0]        c_big, c_small;
  logic [84:0]        c_yn;      // the near path's small operand: small >> |d| for |d| <= 1
  logic               c_neg;     // the near path's big - small is negative (d = 0, t < acc)
  logic [6:0]         c_sa;      // the small operand's shift (127: everything shifted out)
  logic [6:0]         c_tzw;     // window bit of the small operand's lowest set bit
  logic               c_snz;     // the small operand is nonzero
  logic               c_near, c_sub, c_bsign;
  logic signed [9:0]  c_e;       // E: the exponent of window bit 83
  logic               c_spec;    // the result is c_spv (infinities; t = 0 passes acc)
  logic [31:0]        c_spv;
  logic               c_ceil;

  always_comb begin
    c_ae8   = acc_i[30:23];
    c_anan  = (c_ae8 == 8'hFF) && (acc_i[22:0] != 23'd0);
    c_ainf  = c_ae8 == 8'hFF;
    c_azero = acc_i[30:0] == 31'd0;
    c_asign = acc_i[31] && !c_anan;
    c_a     = {c_ae8 != 8'h00, acc_i[22:0]};
    c_ea    = $signed({2'd0, (c_ae8 == 8'h00) ? 8'd1 : c_ae8}) - 10'sd127;  // nominal msb exponent
    c_dt    = 11'(c_et) - 11'(c_ea);
    c_da    = 11'(c_ea) - 11'(c_et);
    c_tbig  = !c_dt[10];  // t at the top (a zero acc has ea = -126: always below t)
    c_sa8   = c_tbig ? c_dt[7:0] : c_da[7:0];  // |d| <= 175
    c_sa    = c_sa8[7] ? 7'd127 : c_sa8[6:0];
    c_sub   = c_asign != c_tsign;
    c_near  = c_sub && (c_sa8 <= 8'd1);
    c_e     = c_tbig ? c_et : c_ea;
    c_bsign = c_tbig ? c_tsign : c_asign;
    c_big   = c_tbig ? {1'b0, c_mt, 1'b0} : {1'b0, c_a, 60'd0};
    c_small = c_tbig ? {1'b0, c_a, 60'd0} : {1'b0, c_mt, 1'b0};
    // (|d|'s lsb is that of et - ea: the parity mux comes first, beside the subtraction, and
    // stage d's subtractor starts from a register)
    c_yn    = c_tbig ? (c_dt[0] ? {2'b0, c_a, 59'd0} : {1'b0, c_a, 60'd0})
                     : (c_dt[0] ? {2'b0, c_mt} : {1'b0, c_mt, 1'b0});
    // Which of big and the near small is larger, found here by a compare rather than from the
    // subtractor's carry in stage d: with |d| = 1 the big operand's msb (bit 83; both are
    // normal on the near path) is above the shifted small's, so only d = 0 (t is big) can be
    // negative, and then big - small < 0 iff Mt < acc's significand on the same grid.
    c_neg   = (c_dt == 11'sd0) && (c_mt < {c_a, 59'd0});
    c_tzw   = c_tbig ? (7'd60 + {2'd0, c_tza}) : (c_tzm + 7'd1);
    c_snz   = c_tbig ? !c_azero : !c_tzero;
    // infinities (a NaN acc is +inf); t = 0: acc passes (-0 -> +0)
    c_spec  = c_ainf || c_tinf || c_tzero;
    if (c_ainf && c_tinf) begin
      c_spv = (c_asign != c_tsign) ? 32'd0 : {c_asign, 8'hFF, 23'd0};
    end else if (c_ainf) begin
      c_spv = {c_asign, 8'hFF, 23'd0};
    end else if (c_tinf) begin
      c_spv = {c_tsign, 8'hFF, 23'd0};
    end else begin
      c_spv = c_azero ? 32'd0 : acc_i;
    end
    c_ceil  = ceiling_i;
  end

  logic [84:0]        d_big, d_small, d_yn;
  logic [6:0]         d_sa, d_tzw;
  logic               d_snz, d_near, d_sub, d_bsign, d_spec, d_ceil, d_neg;
  logic signed [9:0]  d_e;
  logic [31:0]        d_spv;

  // ------------------------------------------------------------------ d: align / subtract
  logic [84:0]  d_shr, d_y, d_dd, d_ny;
  logic [84:0]  dk_p, dk_g, dk_pp, dk_gg, dk_r, dk_r1;
  logic         d_jam;
  logic [127:0] d_tzin;
  logic [6:0]   d_tzd;
  logic         d_dz;
  // the trailing zeros of big - small (= those of big ^ small; the near path's small operand
  // d_yn is shifted in stage c)
  assign d_tzin = {43'd0, d_big ^ d_yn};
  ane_lzc #(.W(128), .Trailing(1'b1)) u_dtz (.v_i(d_tzin), .n_o(d_tzd), .zero_o(d_dz));
  // to stage e
  logic [84:0]  d_xe;   // far: big; near: D
  logic         d_esign;
  always_comb begin
    d_shr  = d_small >> d_sa;
    d_jam  = d_snz && (d_tzw < d_sa);
    d_y    = {d_shr[84:1], d_shr[0] | d_jam};
    // big + ~small = big - small - 1: big - small = that + 1 when big >= small, else
    // small - big = ~(big + ~small) (which of them: d_neg, from stage c)
    d_ny   = ~d_yn;
    // dk: a compound parallel-prefix (Kogge-Stone) adder: dk_r = x + y, dk_r1 = x + y + 1
    // (Level s in whole-vector form: bit i >= 2^s combines with bit i - 2^s, the bits below
    // 2^s keep their (g, p); the same gates as a loop over bits, one wide operation each in
    // the Verilated model.)
    dk_p  = d_big ^ d_ny;
    dk_g  = d_big & d_ny;
    dk_gg = dk_g;
    dk_pp = dk_p;
    for (int s = 0; s < 7; s++) begin
      dk_gg = dk_gg | (dk_pp & (dk_gg << (1 << s)));
      dk_pp = dk_pp & ((dk_pp << (1 << s)) | ~({85{1'b1}} << (1 << s)));
    end
    dk_r  = dk_p ^ {dk_gg[83:0], 1'b0};
    dk_r1 = dk_p ^ {dk_gg[83:0] | dk_pp[83:0], 1'b1};
    d_dd   = d_neg ? ~dk_r : dk_r1;
    d_xe    = d_near ? d_dd : d_big;
    d_esign = (d_near && d_neg) ? !d_bsign : d_bsign;
  end

  logic [83:0]        e_x;   // (bit 84 of big and D is 0: both are below 2^84)
  logic [84:0]        e_y;
  logic [6:0]         e_tzd;
  logic               e_dz, e_near, e_sub, e_sign, e_spec, e_ceil;
  logic signed [9:0]  e_e;
  logic [31:0]        e_spv;

  // ------------------------------------------------------------------ e: add / normalize, round
  logic [84:0]        e_s, e_z, e_xx, e_yy;
  logic [84:0]        ek_p, ek_g, ek_pp, ek_gg, ek_r, ek_r1;
  logic               ek_c1;
  logic               e_st60, e_st59, e_st58;
  logic [127:0]       e_nin, e_n;
  logic [6:0]         e_lz;
  logic               e_lzz;  // (unused: e_x is nonzero whenever e_lz is read)
  assign e_nin = {1'b0, e_x, 43'd0};
  ane_lzc #(.W(128)) u_elz (.v_i(e_nin), .n_o(e_lz), .zero_o(e_lzz));
  logic [7:0]         e_tl;
  // to stage f
  logic [23:0]        e_kept;
  logic               e_rnd, e_sticky, e_rup, e_zero;
  logic signed [10:0] e_ef;  // the biased exponent field before the increment's carry
  always_comb begin
    e_xx = {1'b0, e_x};
    e_yy = e_sub ? ~e_y : e_y;
    // ek: a compound parallel-prefix (Kogge-Stone) adder: ek_r = x + y, ek_r1 = x + y + 1
    // (Level s in whole-vector form: bit i >= 2^s combines with bit i - 2^s, the bits below
    // 2^s keep their (g, p); the same gates as a loop over bits, one wide operation each in
    // the Verilated model.)
    ek_p  = e_xx ^ e_yy;
    ek_g  = e_xx & e_yy;
    ek_gg = ek_g;
    ek_pp = ek_p;
    for (int s = 0; s < 7; s++) begin
      ek_gg = ek_gg | (ek_pp & (ek_gg << (1 << s)));
      ek_pp = ek_pp & ((ek_pp << (1 << s)) | ~({85{1'b1}} << (1 << s)));
    end
    ek_r  = ek_p ^ {ek_gg[83:0], 1'b0};
    ek_r1 = ek_p ^ {ek_gg[83:0] | ek_pp[83:0], 1'b1};
    ek_c1 = ek_gg[84] | ek_pp[84];
    e_s  = e_sub ? ek_r1 : ek_r;  // (far path: big > small when subtracting)
    // bit k of the sum and every bit below it are zero
    // (subtracting: x[k] == y[k]; adding: x[k] ^ y[k] == x[k-1] | y[k-1], bit 0: x[0] == y[0])
    e_z = e_sub ? ~(e_xx ^ e_y) : ~((e_xx ^ e_y) ^ ((e_xx | e_y) << 1));
    e_st60 = e_z[59:0] != {60{1'b1}};
    e_st59 = e_z[58:0] != {59{1'b1}};
    e_st58 = e_z[57:0] != {58{1'b1}};
    e_n  = e_nin << e_lz;
    e_tl = {1'b0, e_tzd} + {1'b0, e_lz};
    if (e_near) begin
      e_kept   = e_n[127:104];
      e_rnd    = e_n[103];
      e_sticky = e_tl < 8'd60;
      e_ef     = 11'(e_e) + 11'sd128 - $signed({4'd0, e_lz});
    end else if (e_s[84]) begin
      e_kept   = e_s[84:61];
      e_rnd    = e_s[60];
      e_sticky = e_st60;
      e_ef     = 11'(e_e) + 11'sd128;
    end else if (e_s[83]) begin
      e_kept   = e_s[83:60];
      e_rnd    = e_s[59];
      e_sticky = e_st59;
      e_ef     = 11'(e_e) + 11'sd127;
    end else begin
      e_kept   = e_s[82:59];
      e_rnd    = e_s[58];
      e_sticky = e_st58;
      e_ef     = 11'(e_e) + 11'sd126;
    end
    e_rup  = e_rnd && (e_sticky || e_kept[0]);
    e_zero = e_near && e_dz;
  end

  logic [23:0]        f_kept;
  logic               f_rup, f_zero, f_sign, f_spec, f_ceil;
  logic signed [10:0] f_ef;
  logic [31:0]        f_spv;

  // ------------------------------------------------------------------ f: round, pack
  // The increment's carry, the overflow and the port ceiling are decided from f_kept, f_rup
  // and f_ef beside the increment, not from its sum (the ceiling compare on the packed result
  // was the m5 lane's critical path, L9 -> L5's forward).
  logic               f_cy;    // the increment carries out: 1.11..1 + 1 ulp = 10.00..0
  logic [22:0]        f_m;     // the fraction after the increment (0 when it carries out)
  logic [7:0]         f_e8;    // the exponent field after the carry
  logic               f_ovf;   // the exponent field reaches 255: inf
  logic               f_big;   // |result| >= 32760 = 0x46FF_F000 (a finite, nonzero result)
  logic               f_sbig;  // the same for a special's value
  always_comb begin
    f_cy   = f_rup && (&f_kept);
    f_m    = f_kept[22:0] + {22'd0, f_rup};
    f_e8   = f_ef[7:0] + {7'd0, f_cy};
    f_ovf  = (f_ef >= 11'sd255) || ((f_ef == 11'sd254) && f_cy);
    // exponent field >= 142 (|x| >= 2^15), or 141 (2^14 <= |x| < 2^15) with a fraction >=
    // 0x7FF000 after the increment: kept's is, or the increment makes it (0x7FEFFF + 1; kept
    // all ones + 1 carries into 142)
    f_big  = (f_ef >= 11'sd142)
          || ((f_ef == 11'sd141) && ((&f_kept[22:12]) || (f_rup && (f_kept[22:0] == 23'h7F_EFFF))));
    f_sbig = f_spv[30:0] >= 31'h46FF_F000;
    // N-2.6 accumulator-port ceiling: RNE_fp16(acc) >= 32768 exactly when |acc| >= 32760.
    if (f_spec) begin
      acc_o = (f_ceil && f_sbig) ? {f_spv[31], 8'hFF, 23'd0} : f_spv;
    end else if (f_zero) begin
      acc_o = 32'd0;
    end else if (f_ovf || (f_ceil && f_big)) begin
      acc_o = {f_sign, 8'hFF, 23'd0};
    end else begin
      acc_o = {f_sign, f_e8, f_m};  // (a carry leaves the fraction 0: 1.000...)
    end
  end

  // ------------------------------------------------------------------ pipeline registers
  // The pipeline registers (ane_pipe_reg: Pipe = 1, registers with enable en_i and no reset;
  // Pipe = 0, wires).
  ane_pipe_reg #(.W($bits({b_t, b_lz, b_tz, b_zero})), .Pipe(Pipe)) u_b (
    .clk_i, .en_i, .d_i({t_i, a_lz, a_tz, a_zero}),
    .q_o({b_t, b_lz, b_tz, b_zero})
  );
  ane_pipe_reg #(.W($bits({c_mt, c_et, c_tzm, c_tinf, c_tsign, c_tzero})), .Pipe(Pipe)) u_c (
    .clk_i, .en_i, .d_i({b_mt, b_et, b_tzm, b_t.inf, b_t.sign, b_zero && !b_t.inf}),
    .q_o({c_mt, c_et, c_tzm, c_tinf, c_tsign, c_tzero})
  );
  ane_pipe_reg #(.W($bits({d_big, d_small, d_yn, d_neg, d_sa, d_tzw, d_snz, d_near, d_sub, d_bsign, d_e,
        d_spec, d_spv, d_ceil})), .Pipe(Pipe)) u_d (
    .clk_i, .en_i, .d_i({c_big, c_small, c_yn, c_neg, c_sa, c_tzw, c_snz, c_near, c_sub, c_bsign, c_e, c_spec,
          c_spv, c_ceil}),
    .q_o({d_big, d_small, d_yn, d_neg, d_sa, d_tzw, d_snz, d_near, d_sub, d_bsign, d_e, d_spec, d_spv, d_ceil})
  );
  ane_pipe_reg #(.W($bits({e_x, e_y, e_tzd, e_dz, e_near, e_sub, e_sign, e_e, e_spec, e_spv, e_ceil})),
        .Pipe(Pipe)) u_e (
    .clk_i, .en_i, .d_i({d_xe[83:0], d_y, d_tzd, d_dz, d_near, d_sub, d_esign, d_e, d_spec, d_spv, d_ceil}),
    .q_o({e_x, e_y, e_tzd, e_dz, e_near, e_sub, e_sign, e_e, e_spec, e_spv, e_ceil})
  );
  ane_pipe_reg #(.W($bits({f_kept, f_rup, f_zero, f_sign, f_ef, f_spec, f_spv, f_ceil})), .Pipe(Pipe)) u_f (
    .clk_i, .en_i, .d_i({e_kept, e_rup, e_zero, e_sign, e_ef, e_spec, e_spv, e_ceil}),
    .q_o({f_kept, f_rup, f_zero, f_sign, f_ef, f_spec, f_spv, f_ceil})
  );

  logic unused;
  assign unused = ^{a_tzero, c_tzz, e_lzz, 
                    c_dt[9:8], c_da[10:8], dk_r1[84], dk_pp[84],
                    dk_gg[84], d_xe[84], ek_c1, ek_pp[84], ek_gg[84], e_s[57:0], e_z[84:60], e_n[102:0]};

endmodule

`default_nettype wire
