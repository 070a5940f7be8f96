// ane_pp_lane: one lane of the post-processor (NUMERICS N-3, N-5; docs/postproc.md).
// Nine pipeline stages, all advancing together on en_i (the post-processor's pipeline enable);
// one fp16 operation per stage at most:
//   S1 round      RNE16 / stochastic rounding / int8 requantization / int32 -> fp16 (ane_pp_round)
//   S2 scale      mul(r, scale)                                      (N-3.1)
//   S3 bias       add(r, bias16)                                     (N-3.1)
//   S4 act in     N-1 boundary; ReLU; table special inputs, symmetry, pre-multiply by k
//   S5 argument   exp2: n = floor(v), t = v - n; trig: quadrant, t = f or 1 - f;
//                 log / pow: x = 2^e * m (pow: even split); direct: t = x
//   S6 segment    clamp or segment i of t; p = mul(m[i], t)
//   S7 segment    T = add(p, c[i]) (or the clamp value, or t)
//   S8 post       exp2 / pow: ldexp(T, n); log: add(e, T); trig: sign of the quadrant
//   S9 post       log: mul(w, k); odd symmetry; special results; no -0 from a table
// The per-vector scale and bias arrive aligned with S1 and S2 (the caller registers them).
`default_nettype none

module ane_pp_lane #(
  parameter logic Gen = ane_pkg::GenM1
) (
  input  wire logic                        clk_i,
  input  wire logic                        en_i,
  // flat vectors of ane_pkg::pp_ctrl_t and act_desc_t: Verilator 5.006 cannot make a
  // hierarchical block (rtl/ane_core_hier.vlt) of a module with struct ports
  input  wire logic [ane_pkg::PpCtrlBits-1:0]  ctrl_i,
  input  wire logic [ane_pkg::ActDescBits-1:0] desc_i,
  input  wire logic [32*ane_pkg::ActSegments-1:0] seg_i,  // segment i: {c, m} at [32i +: 32]
  input  wire logic [31:0]                 acc_i,     // sampled into S1
  input  wire logic [12:0]                 rand_i,    // this lane's stochastic-rounding draw
  input  wire logic [15:0]                 scale_s1_i,  // the vector's scale, S1-aligned
  input  wire logic [15:0]                 bias_s2_i,   // RNE16 of the vector's bias, S2-aligned
  output      logic [15:0]                 y_o
);

  ane_pkg::pp_ctrl_t  ctrl;
  ane_pkg::act_desc_t desc;
  assign ctrl = ctrl_i;
  assign desc = desc_i;

  localparam logic [15:0] One = 16'h3C00;

  // (No functions in this module: the lanes of an array share one body of simulation code only
  // if the code of every lane is identical, and Verilator numbers the temporaries of every inlined
  // function call apart.)

  logic [2:0] mode;
  assign mode = desc.mode;

  // ---------------- S1 round ----------------
  logic [15:0] r1, s1_r;
  ane_pp_round #(.Gen(Gen)) u_round (
    .acc_i(acc_i), .int_acc_i(ctrl.int_acc), .shift_i(ctrl.shift),
    .store_int8_i(ctrl.store_int8), .sr_i(ctrl.sr), .sr_width_i(ctrl.sr_width),
    .rand_i(rand_i), .r_o(r1));

  // ---------------- S2 scale ----------------
  logic [15:0] scaled, s2_r;
  ane_fp16_mul u_scale (.a_i(s1_r), .b_i(scale_s1_i), .y_o(scaled));

  // ---------------- S3 bias ----------------
  logic [15:0] biased, s3_r;
  ane_fp16_add u_bias (.a_i(s2_r), .b_i(bias_s2_i), .sub_i(1'b0), .y_o(biased));

  // ---------------- S4 activation input ----------------
  logic [15:0] x4, xa4, pre_a, pre_v;
  logic        spec4, flip4;
  logic [15:0] specv4;
  logic        s4_spec, s4_flip;
  logic [15:0] s4_specv, s4_x, s4_v;
  logic        range_mode;

  always_comb begin
    // the N-1 boundary: NaN -> +inf, -0 -> +0
    x4 = ((s3_r[14:10] == 5'h1F) && (s3_r[9:0] != 10'd0)) ? 16'h7C00 : ((s3_r == 16'h8000) ? 16'h0000 : s3_r);
    range_mode = (mode == ane_pkg::ActLog) || (mode == ane_pkg::ActPow);
    spec4  = 1'b1;
    specv4 = s3_r;  // no activation (and every int8 store): the value passes unchanged
    if (ctrl.act == ane_pkg::PpActNone) begin
      specv4 = s3_r;
    end else if (ctrl.store_int8) begin
      specv4 = (ctrl.act == ane_pkg::PpActRelu && s3_r[15]) ? 16'h0000 : s3_r;  // int8 ReLU
    end else if (ctrl.act == ane_pkg::PpActRelu) begin
      specv4 = x4[15] ? 16'h0000 : x4;  // max(x, +0), N-3.2
    end else if (x4 == 16'h7C00) begin
      specv4 = desc.at_pinf;
    end else if (x4 == 16'hFC00) begin
      specv4 = desc.at_ninf;
    end else if (x4 == 16'h0000 && (desc.zero_en || range_mode)) begin
      specv4 = desc.at_zero;
    end else if (x4[15] && desc.neg_en) begin
      specv4 = desc.at_neg;
    end else begin
      spec4 = 1'b0;
    end
    flip4 = (desc.sym == ane_pkg::ActSymOdd) && x4[15];
    xa4   = (desc.sym != ane_pkg::ActSymNone) ? {1'b0, x4[14:0]} : x4;
    pre_a = (mode == ane_pkg::ActTrig) ? {1'b0, xa4[14:0]} : xa4;
  end
  ane_fp16_mul u_pre (.a_i(pre_a), .b_i(desc.k), .y_o(pre_v));

  // ---------------- S5 argument ----------------
  // Split |v| (finite) into its integer part and its fraction (an exact fp16 code).
  logic [15:0]       vmag;
  logic signed [6:0] ve;            // unbiased exponent of |v| (normals; denormals < 1 anyway)
  logic [10:0]       vsig;
  logic [16:0]       vint;
  logic [9:0]        fbits;         // fraction bits, weight 2^(ve - 10)
  logic [3:0]        fmsb;
  logic [15:0]       frac_code, one_minus, t5, mm;
  logic signed [7:0] n5;
  logic              neg5, spec5;
  logic [15:0]       specv5;
  logic signed [6:0] le;            // log / pow exponent
  logic [3:0]        lz;
  logic [15:0]       s5_t;
  logic signed [7:0] s5_n;
  logic              s5_neg, s5_spec, s5_flip;
  logic [15:0]       s5_specv;

  always_comb begin
    vmag = {1'b0, s4_v[14:0]};
    vsig = {(s4_v[14:10] != 5'd0), s4_v[9:0]};
    ve   = $signed({2'b00, s4_v[14:10]}) - 7'sd15;
    vint  = 17'd0;
    fbits = 10'd0;
    if (s4_v[14:10] == 5'd0 || ve < 7'sd0) begin
      vint = 17'd0;                       // |v| < 1: all fraction
    end else if (ve >= 7'sd10) begin
      vint = 17'(vsig) << (ve - 7'sd10);  // |v| >= 1024: an integer
    end else begin
      vint  = {6'd0, vsig >> (7'sd10 - ve)};
      fbits = 10'(vsig & ((11'd1 << (7'sd10 - ve)) - 11'd1));
    end
    fmsb = 4'd0;
    for (int b = 0; b < 10; b++) begin
      if (fbits[b]) fmsb = 4'(b);
    end
    if (s4_v[14:10] == 5'd0 || ve < 7'sd0) begin
      frac_code = vmag;
    end else if (fbits == 10'd0) begin
      frac_code = 16'h0000;
    end else begin
      // value fbits * 2^(ve - 10), top bit fmsb: exponent fmsb + ve - 10 (>= -10)
      frac_code = {1'b0, 5'(7'sd5 + $signed({3'd0, fmsb}) + ve),
                   10'(({fbits, 10'd0} >> fmsb))};
    end
  end
  ane_fp16_add u_arg (.a_i(One), .b_i(frac_code), .sub_i(1'b1), .y_o(one_minus));

  always_comb begin
    t5     = s4_x;
    n5     = 8'sd0;
    neg5   = 1'b0;
    spec5  = s4_spec;
    specv5 = s4_specv;
    le     = 7'sd0;
    lz     = 4'd0;
    mm     = 16'h0000;
    // log / pow: x = 2^e * m, m in [1, 2) (x positive, finite, nonzero here)
    for (int b = 0; b < 10; b++) begin
      if (s4_x[b]) lz = 4'(10 - b);
    end
    if (s4_x[14:10] != 5'd0) begin
      le = $signed({2'b00, s4_x[14:10]}) - 7'sd15;
      mm = {6'b001111, s4_x[9:0]};
    end else begin
      le = -7'sd14 - $signed({3'd0, lz});
      mm = {6'b001111, 10'(s4_x[9:0] << lz)};
    end
    case (mode)  // not `unique`: its run-time check names the lane, and the lanes share code
      ane_pkg::ActExp2: begin
        if (!s4_spec && s4_v == 16'h7C00) begin
          spec5 = 1'b1;
          specv5 = 16'h7C00;
        end else if (!s4_spec && s4_v == 16'hFC00) begin
          spec5 = 1'b1;
          specv5 = 16'h0000;
        end
        if (!s4_v[15]) begin
          n5 = (vint > 17'd64) ? 8'sd64 : 8'(vint);
          t5 = frac_code;
        end else begin
          n5 = (vint > 17'd63) ? -8'sd64 : -$signed(8'(vint)) - ((frac_code != 16'd0) ? 8'sd1 : 8'sd0);
          t5 = (frac_code != 16'd0) ? one_minus : 16'h0000;
        end
      end
      ane_pkg::ActTrig: begin
        // quadrant q = floor(u) (+1 for cos); t = q odd ? 1 - f : f; q & 2 negates
        if ((vint[0] ^ desc.cos_phase)) t5 = one_minus;
        else                              t5 = frac_code;
        neg5 = vint[1] ^ (vint[0] & desc.cos_phase);
      end
      ane_pkg::ActLog: begin
        t5 = mm;
        n5 = 8'(le);
      end
      ane_pkg::ActPow: begin
        t5 = mm;
        n5 = 8'(le);
        if (desc.pow_split && le[0]) begin
          t5 = mm + 16'h0400;  // m * 2
          n5 = 8'(le - 7'sd1);
        end
        if (desc.pow_split) n5 = n5 >>> 1;
        if (desc.pow_negate) n5 = -n5;
      end
      default: begin
        t5 = s4_x;
      end
    endcase
  end

  // ---------------- S6 segment select and multiply ----------------
  // t and lo as signed fixed point in units of 2^-24 (42 bits hold every fp16 magnitude).
  logic [41:0]        t_mag6, lo_mag6;
  logic signed [42:0] t_fix6, lo_fix6;
  always_comb begin
    if (s5_t[14:10] == 5'd0) t_mag6 = {32'd0, s5_t[9:0]};
    else                     t_mag6 = 42'({1'b1, s5_t[9:0]}) << (s5_t[14:10] - 5'd1);
    t_fix6 = s5_t[15] ? -$signed({1'b0, t_mag6}) : $signed({1'b0, t_mag6});
    if (desc.lo[14:10] == 5'd0) lo_mag6 = {32'd0, desc.lo[9:0]};
    else                        lo_mag6 = 42'({1'b1, desc.lo[9:0]}) << (desc.lo[14:10] - 5'd1);
    lo_fix6 = desc.lo[15] ? -$signed({1'b0, lo_mag6}) : $signed({1'b0, lo_mag6});
  end

  logic signed [42:0] d6, idx_full;
  logic [4:0]         idx;
  logic [1:0]         sel6;           // 0 segment, 1 left, 2 right, 3 identity
  logic [15:0]        m6, c6, p6;
  logic [5:0]         dshift;
  logic [15:0]        s6_p, s6_c, s6_t, s6_specv;
  logic [1:0]         s6_sel;
  logic signed [7:0]  s6_n;
  logic               s6_neg, s6_spec, s6_flip;

  always_comb begin
    d6       = t_fix6 - lo_fix6;
    dshift   = 6'($signed(7'sd24) + 7'(desc.step_log2));
    idx_full = d6 >>> dshift;
    idx      = idx_full[4:0];
    if (d6 < 43'sd0)               sel6 = 2'd1;
    else if (idx_full >= 43'sd32)  sel6 = desc.right_identity ? 2'd3 : 2'd2;
    else                           sel6 = 2'd0;
    m6 = seg_i[{idx, 5'd0} +: 16];
    c6 = seg_i[{idx, 5'd0} + 10'd16 +: 16];
  end
  ane_fp16_mul u_seg_mul (.a_i(m6), .b_i(s5_t), .y_o(p6));

  // ---------------- S7 segment add ----------------
  logic [15:0] sum7, y7, s7_y, s7_specv;
  logic signed [7:0] s7_n;
  logic        s7_neg, s7_spec, s7_flip;
  ane_fp16_add u_seg_add (.a_i(s6_p), .b_i(s6_c), .sub_i(1'b0), .y_o(sum7));
  always_comb begin
    case (s6_sel)  // (not `unique`, as above)
      2'd1:    y7 = desc.left;
      2'd2:    y7 = desc.right;
      2'd3:    y7 = s6_t;
      default: y7 = sum7;
    endcase
  end

  // ---------------- S8 post ----------------
  logic [15:0] ld8, w8, z8, s8_z, s8_specv;
  logic        s8_spec, s8_flip;
  ane_fp16_ldexp u_ldexp (.h_i(s7_y), .n_i(s7_n), .y_o(ld8));
  // s7_n (|n| <= 64) as its exact fp16 code
  logic [6:0]  n_mag8;
  logic [2:0]  n_msb8;
  logic [15:0] n_fp8;
  always_comb begin
    n_mag8 = s7_n[7] ? 7'(-s7_n) : s7_n[6:0];
    n_msb8 = 3'd0;
    for (int b = 0; b < 7; b++) begin
      if (n_mag8[b]) n_msb8 = 3'(b);
    end
    n_fp8 = (n_mag8 == 7'd0) ? 16'h0000
                             : {s7_n[7], 5'(5'd15 + {2'd0, n_msb8}), 10'((17'({n_mag8, 10'd0}) >> n_msb8))};
  end
  ane_fp16_add u_log_add (.a_i(n_fp8), .b_i(s7_y), .sub_i(1'b0), .y_o(w8));
  always_comb begin
    case (mode)  // (not `unique`, as above)
      ane_pkg::ActExp2, ane_pkg::ActPow: z8 = ld8;
      ane_pkg::ActLog:                   z8 = w8;
      ane_pkg::ActTrig:                  z8 = (s7_neg && s7_y[14:0] != 15'd0) ? {~s7_y[15], s7_y[14:0]} : s7_y;
      default:                           z8 = s7_y;
    endcase
  end

  // ---------------- S9 post ----------------
  logic [15:0] lk9, z9, y9;
  ane_fp16_mul u_log_mul (.a_i(s8_z), .b_i(desc.k), .y_o(lk9));
  always_comb begin
    z9 = (mode == ane_pkg::ActLog) ? lk9 : s8_z;
    if (s8_flip && z9[14:0] != 15'd0) z9 = {~z9[15], z9[14:0]};
    if (z9 == 16'h8000) z9 = 16'h0000;  // a table result is never -0
    y9 = s8_spec ? s8_specv : z9;
  end

  // ---------------- pipeline registers ----------------
  always_ff @(posedge clk_i) begin
    if (en_i) begin
      s1_r <= r1;
      s2_r <= ctrl.scale_en && !ctrl.store_int8 ? scaled : s1_r;
      s3_r <= ctrl.bias_en && !ctrl.store_int8 ? biased : s2_r;
      s4_spec <= spec4;  s4_specv <= specv4;  s4_flip <= flip4;  s4_x <= xa4;  s4_v <= pre_v;
      s5_t <= t5;  s5_n <= n5;  s5_neg <= neg5;  s5_spec <= spec5;  s5_specv <= specv5;
      s5_flip <= s4_flip;
      s6_p <= p6;  s6_c <= c6;  s6_t <= s5_t;  s6_sel <= sel6;  s6_n <= s5_n;  s6_neg <= s5_neg;
      s6_spec <= s5_spec;  s6_specv <= s5_specv;  s6_flip <= s5_flip;
      s7_y <= y7;  s7_n <= s6_n;  s7_neg <= s6_neg;  s7_spec <= s6_spec;  s7_specv <= s6_specv;
      s7_flip <= s6_flip;
      s8_z <= z8;  s8_spec <= s7_spec;  s8_specv <= s7_specv;  s8_flip <= s7_flip;
      y_o <= y9;
    end
  end

endmodule
