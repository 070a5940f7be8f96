// SPDX-License-Identifier: Apache-2.0
// ane_pe_ew_cov: functional-coverage bins of the planar elementwise unit ane_pe_ew (NUMERICS
// N-4.1 elementwise operations, N-4.2 indeterminate forms, N-4.3 ternary operations, with the
// N-1 operand boundary; N-4.7 softmax's subtraction of the maximum): every operation code the
// unit decodes, each indeterminate form at the fp16 unit that decides it (the S1 multiplier /
// adder, or the S2 unit of a ternary), the overflow limit, compare outcomes and signed zeros. Bins read the input handshake (in_valid_i
// && in_ready_o: the operands and code of an accepted vector) or the output handshake.
// Bound to every ane_pe_ew only in the coverage build (the bind at the end of this file); never
// synthesized. Nothing here drives the design.
`default_nettype none

// Line and toggle counters off in this file (its helper logic is not the design); the cover
// statements (v_user points) count regardless.
// verilator coverage_off
module ane_pe_ew_cov #(
  parameter int unsigned NumLanes = 16
) (
  input wire logic                   clk_i,
  input wire logic                   rst_ni,
  input wire logic                   in_valid_i,
  input wire logic                   in_ready_o,
  input wire ane_pkg::pe_ew_op_e     in_op_i,
  input wire logic [NumLanes*16-1:0] in_a_i,
  input wire logic [NumLanes*16-1:0] in_b_i,
  input wire logic [NumLanes*16-1:0] in_c_i,
  input wire logic                   out_valid_o,
  input wire logic                   out_ready_i,
  input wire logic [NumLanes*16-1:0] out_y_o
);

  // Reset released: the covers read this flop, not rst_ni (a clocked read of the asynchronous
  // reset is SYNCASYNCNET); it rises at the first clock edge after the reset.
  logic live_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) live_q <= 1'b0;
    else         live_q <= 1'b1;
  end

  // N-1 on a code, and the classes of a boundary value (no NaN, no -0 left).
  function automatic logic [15:0] bnd(logic [15:0] v);
    bnd = ane_pkg::fp16_boundary(v);
  endfunction
  function automatic logic is_inf(logic [15:0] v);    // v after N-1 (a NaN is +inf by then)
    is_inf = ane_pkg::fp16_is_infnan(v);
  endfunction
  function automatic logic is_zero(logic [14:0] m);   // the magnitude bits of v after N-1
    is_zero = m == 15'd0;
  endfunction
  // Order of two boundary values as ane_pe_ew's compare: 1 a > b, 3 a < b, 0 equal.
  function automatic logic [1:0] ord(logic [15:0] p, logic [15:0] q);
    logic gt, lt;
    if (p[15] != q[15]) begin
      gt = !p[15];
      lt = p[15];
    end else if (!p[15]) begin
      gt = p[14:0] > q[14:0];
      lt = p[14:0] < q[14:0];
    end else begin
      gt = p[14:0] < q[14:0];
      lt = p[14:0] > q[14:0];
    end
    ord = gt ? 2'b01 : (lt ? 2'b11 : 2'b00);
  endfunction

  logic fire, ofire;
  assign fire  = live_q && in_valid_i && in_ready_o;
  assign ofire = live_q && out_valid_o && out_ready_i;

  // Per-lane predicates of the accepted vector, OR-ed over the lanes ("some lane").
  logic add_ii, sub_ii, mul_zi, am_zi, am_ii, am_nz, ma_ii, ma_zi;
  logic nan_in, negz_in, sub_in, sq_256, sq_255, add_lim, add_lim8, mul_ovf;
  logic cmp_gt, cmp_eq, cmp_lt, cmp_zz, relu_neg, relu_negz, maxmin_nan, pass_nan;
  logic res_sub, res_negz, res_inf, sm_nan, sm_max;
  always_comb begin
    {add_ii, sub_ii, mul_zi, am_zi, am_ii, am_nz, ma_ii, ma_zi} = '0;
    {nan_in, negz_in, sub_in, sq_256, sq_255, add_lim, add_lim8, mul_ovf} = '0;
    {cmp_gt, cmp_eq, cmp_lt, cmp_zz, relu_neg, relu_negz, maxmin_nan, pass_nan} = '0;
    {res_sub, res_negz, res_inf, sm_nan, sm_max} = '0;
    for (int l = 0; l < int'(NumLanes); l++) begin
      logic [15:0] ra, rb, rc, a, b, c, y;
      logic        pinf, sum_zero, sum_inf;
      ra = in_a_i[16*l +: 16];
      rb = in_b_i[16*l +: 16];
      rc = in_c_i[16*l +: 16];
      a  = bnd(ra);
      b  = bnd(rb);
      c  = bnd(rc);
      y  = out_y_o[16*l +: 16];
      // a + b and a - b (S1 adder): inf - inf
      add_ii |= is_inf(a) && is_inf(b) && (a[15] != b[15]);
      sub_ii |= is_inf(a) && is_inf(b) && (a[15] == b[15]);
      // a * b (S1 multiplier): 0 x inf
      mul_zi |= (is_zero(a[14:0]) && is_inf(b)) || (is_inf(a) && is_zero(b[14:0]));
      // a + b*c: 0 x inf in S1's multiplier; inf - inf in S2's adder (b*c an infinity);
      // a -0 product (IEEE sign) that enters S2 through N-1 (planar.md interpretation 3)
      am_zi |= (is_zero(b[14:0]) && is_inf(c)) || (is_inf(b) && is_zero(c[14:0]));
      pinf   = (is_inf(b) && !is_zero(c[14:0])) || (is_inf(c) && !is_zero(b[14:0]));
      am_ii |= pinf && is_inf(a) && (a[15] != (b[15] ^ c[15]));
      am_nz |= (is_zero(b[14:0]) || is_zero(c[14:0])) && !is_inf(b) && !is_inf(c) && (b[15] ^ c[15]);
      // (a + b)*c: inf - inf in S1's adder; 0 x inf in S2's multiplier (a + b zero, also after
      // inf - inf = +0, or a + b an infinity, against c)
      ma_ii   |= is_inf(a) && is_inf(b) && (a[15] != b[15]);
      sum_zero = (is_zero(a[14:0]) && is_zero(b[14:0])) || (is_inf(a) && is_inf(b) && (a[15] != b[15])) ||
                 (!is_inf(a) && !is_zero(a[14:0]) && a[14:0] == b[14:0] && a[15] != b[15]);
      sum_inf  = (is_inf(a) || is_inf(b)) && !(is_inf(a) && is_inf(b) && (a[15] != b[15]));
      ma_zi   |= (sum_zero && is_inf(c)) || (sum_inf && is_zero(c[14:0]));
      // operands at the N-1 boundary
      nan_in  |= ane_pkg::fp16_is_nan(ra) || ane_pkg::fp16_is_nan(rb);
      negz_in |= (ra == ane_pkg::Fp16NegZero) || (rb == ane_pkg::Fp16NegZero);
      sub_in  |= (ra[14:10] == 5'd0 && ra[9:0] != 10'd0) || (rb[14:10] == 5'd0 && rb[9:0] != 10'd0);
      // the overflow limit: 256^2 = 65536 is inf, 255.875^2 = 65472; 65504 + 16 is inf, + 8 not
      sq_256  |= a[14:0] == 15'h5C00;
      sq_255  |= a[14:0] == 15'h5BFF;
      add_lim  |= (a == 16'h7BFF && b == 16'h4C00) || (a == 16'h4C00 && b == 16'h7BFF);
      add_lim8 |= (a == 16'h7BFF && b == 16'h4800) || (a == 16'h4800 && b == 16'h7BFF);
      mul_ovf |= !is_inf(a) && !is_inf(b) && a[14:10] != 5'd0 && b[14:10] != 5'd0 &&
                 ({1'b0, a[14:10]} + {1'b0, b[14:10]} >= 6'd46);
      // compare outcomes (+1, +0, -1), and -0 against +0 (equal after N-1)
      cmp_gt |= ord(a, b) == 2'b01;
      cmp_eq |= ord(a, b) == 2'b00;
      cmp_lt |= ord(a, b) == 2'b11;
      cmp_zz |= (ra == ane_pkg::Fp16NegZero && rb == ane_pkg::Fp16PosZero) ||
                (ra == ane_pkg::Fp16PosZero && rb == ane_pkg::Fp16NegZero);
      relu_neg   |= a[15] && !is_zero(a[14:0]);
      relu_negz  |= ra == ane_pkg::Fp16NegZero;
      maxmin_nan |= ane_pkg::fp16_is_nan(ra) || ane_pkg::fp16_is_nan(rb);
      pass_nan   |= ane_pkg::fp16_is_nan(ra) || ra == ane_pkg::Fp16NegZero;
      // N-4.7 softmax's d = x - max: a NaN lane against the maximum +inf (inf - inf = +0: the
      // lane takes all the mass), a finite lane against it (-inf: no mass)
      sm_nan |= ane_pkg::fp16_is_nan(ra) && b == ane_pkg::Fp16PosInf;
      sm_max |= !is_inf(a) && b == ane_pkg::Fp16PosInf;
      // results
      res_sub  |= y[14:10] == 5'd0 && y[9:0] != 10'd0;
      res_negz |= y == ane_pkg::Fp16NegZero;
      res_inf  |= y[14:0] == 15'h7C00;
    end
  end

  // N-4.1: one bin per operation code the unit decodes (0 add .. 11 (a + b) c, 12 pass).
  if (1) begin : g_op_0
    always_ff @(posedge clk_i) begin
      N4_1_opcode_0: cover (fire && in_op_i == 4'(0));
    end
  end
  if (1) begin : g_op_1
    always_ff @(posedge clk_i) begin
      N4_1_opcode_1: cover (fire && in_op_i == 4'(1));
    end
  end
  if (1) begin : g_op_2
    always_ff @(posedge clk_i) begin
      N4_1_opcode_2: cover (fire && in_op_i == 4'(2));
    end
  end
  if (1) begin : g_op_3
    always_ff @(posedge clk_i) begin
      N4_1_opcode_3: cover (fire && in_op_i == 4'(3));
    end
  end
  if (1) begin : g_op_4
    always_ff @(posedge clk_i) begin
      N4_1_opcode_4: cover (fire && in_op_i == 4'(4));
    end
  end
  if (1) begin : g_op_5
    always_ff @(posedge clk_i) begin
      N4_1_opcode_5: cover (fire && in_op_i == 4'(5));
    end
  end
  if (1) begin : g_op_6
    always_ff @(posedge clk_i) begin
      N4_1_opcode_6: cover (fire && in_op_i == 4'(6));
    end
  end
  if (1) begin : g_op_7
    always_ff @(posedge clk_i) begin
      N4_1_opcode_7: cover (fire && in_op_i == 4'(7));
    end
  end
  if (1) begin : g_op_8
    always_ff @(posedge clk_i) begin
      N4_1_opcode_8: cover (fire && in_op_i == 4'(8));
    end
  end
  if (1) begin : g_op_9
    always_ff @(posedge clk_i) begin
      N4_1_opcode_9: cover (fire && in_op_i == 4'(9));
    end
  end
  if (1) begin : g_op_10
    always_ff @(posedge clk_i) begin
      N4_1_opcode_10: cover (fire && in_op_i == 4'(10));
    end
  end
  if (1) begin : g_op_11
    always_ff @(posedge clk_i) begin
      N4_1_opcode_11: cover (fire && in_op_i == 4'(11));
    end
  end
  if (1) begin : g_op_12
    always_ff @(posedge clk_i) begin
      N4_1_opcode_12: cover (fire && in_op_i == 4'(12));
    end
  end

  always_ff @(posedge clk_i) begin
    // ---- N-4.2: each indeterminate form at the unit that decides it ----
    N4_2_add_inf_minus_inf:        cover (fire && in_op_i == ane_pkg::PeEwAdd && add_ii);
    N4_2_sub_inf_minus_inf:        cover (fire && in_op_i == ane_pkg::PeEwSub && sub_ii);
    N4_2_mul_zero_times_inf:       cover (fire && in_op_i == ane_pkg::PeEwMul && mul_zi);
    N4_2_addmul_zero_times_inf:    cover (fire && in_op_i == ane_pkg::PeEwAddMul && am_zi);
    N4_2_addmul_inf_minus_inf:     cover (fire && in_op_i == ane_pkg::PeEwAddMul && am_ii);
    N4_2_muladd_inf_minus_inf:     cover (fire && in_op_i == ane_pkg::PeEwMulAfterAdd && ma_ii);
    N4_2_muladd_zero_times_inf:    cover (fire && in_op_i == ane_pkg::PeEwMulAfterAdd && ma_zi);
    // ---- N-4.3: the ternaries' intermediate ----
    N4_3_addmul_neg_zero_product:  cover (fire && in_op_i == ane_pkg::PeEwAddMul && am_nz);
    // ---- N-4.1: operands at the boundary, the overflow limit, compare and signed zeros ----
    N4_1_nan_operand:              cover (fire && in_op_i <= ane_pkg::PeEwCmp && nan_in);
    N4_1_neg_zero_operand:         cover (fire && in_op_i <= ane_pkg::PeEwCmp && negz_in);
    N4_1_subnormal_operand:        cover (fire && in_op_i <= ane_pkg::PeEwMul && sub_in);
    N4_1_square_256_overflows:     cover (fire && in_op_i == ane_pkg::PeEwSquare && sq_256);
    N4_1_square_255_875_finite:    cover (fire && in_op_i == ane_pkg::PeEwSquare && sq_255);
    N4_1_add_max_plus_16_inf:      cover (fire && in_op_i == ane_pkg::PeEwAdd && add_lim);
    N4_1_add_max_plus_8_finite:    cover (fire && in_op_i == ane_pkg::PeEwAdd && add_lim8);
    N4_1_mul_overflow:             cover (fire && in_op_i == ane_pkg::PeEwMul && mul_ovf);
    N4_1_cmp_greater:              cover (fire && in_op_i == ane_pkg::PeEwCmp && cmp_gt);
    N4_1_cmp_equal:                cover (fire && in_op_i == ane_pkg::PeEwCmp && cmp_eq);
    N4_1_cmp_less:                 cover (fire && in_op_i == ane_pkg::PeEwCmp && cmp_lt);
    N4_1_cmp_neg_zero_vs_pos_zero: cover (fire && in_op_i == ane_pkg::PeEwCmp && cmp_zz);
    N4_1_relu_negative:            cover (fire && in_op_i == ane_pkg::PeEwRelu && relu_neg);
    N4_1_relu_neg_zero:            cover (fire && in_op_i == ane_pkg::PeEwRelu && relu_negz);
    N4_1_max_nan:                  cover (fire && in_op_i == ane_pkg::PeEwMax && maxmin_nan);
    N4_1_min_nan:                  cover (fire && in_op_i == ane_pkg::PeEwMin && maxmin_nan);
    N4_1_pass_nan_or_neg_zero:     cover (fire && in_op_i == ane_pkg::PeEwPass && pass_nan);
    N4_1_result_subnormal:         cover (ofire && res_sub);
    N4_1_result_neg_zero:          cover (ofire && res_negz);
    N4_1_result_inf:               cover (ofire && res_inf);
    N4_1_back_pressure:            cover (live_q && out_valid_o && !out_ready_i);
    // ---- N-4.7: softmax's subtraction of the maximum ----
    N4_7_sub_nan_lane_from_inf_max: cover (fire && in_op_i == ane_pkg::PeEwSub && sm_nan);
    N4_7_sub_finite_from_inf_max:   cover (fire && in_op_i == ane_pkg::PeEwSub && sm_max);
  end

endmodule

bind ane_pe_ew ane_pe_ew_cov #(.NumLanes(NumLanes)) u_cov (.*);

`default_nettype wire
// verilator coverage_on
