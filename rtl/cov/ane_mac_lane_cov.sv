// SPDX-License-Identifier: Apache-2.0
// ane_mac_lane_cov: functional-coverage bins of the MAC lane's operation port (NUMERICS N-1,
// N-2.1 to N-2.3, N-2.5, N-2.8, N-2.9): the fp16 operand classes (NaN, +inf, -inf, -0,
// denormal) on the data and the kernel side, the operand modes, the special products and the
// denormal cases of N-2.3, and the CmdLoad values, each as the operation is accepted
// (in_valid_i && in_ready_o, reset deasserted), per generation (Gen). The results (the output
// port) and the inner stages are covered in ane_mac_dp_cov, the reduction structure in
// ane_mac_ctrl_cov.
// Bound only in the coverage build (bind below); never synthesized. It reads the lane's signals
// and drives nothing in the design.
`default_nettype none

// Line and toggle counters off in this file (its helper logic is not the design); the cover
// statements (v_user points) count regardless.
// verilator coverage_off
module ane_mac_lane_cov #(
  parameter logic Gen = ane_pkg::GenM1
) (
  input wire logic        clk_i,
  input wire logic        rst_ni,
  input wire logic        in_valid_i,
  input wire logic        in_ready_o,
  input wire logic [1:0]  in_cmd_i,
  input wire logic [2:0]  in_mode_i,
  input wire logic [2:0]  in_slot_i,
  input wire logic        in_first_i,
  input wire logic [15:0] in_data_i,
  input wire logic [15:0] in_kernel_i
);

  // Reset released: the covers read this flop, not rst_ni (a clocked read of the asynchronous
  // reset is SYNCASYNCNET); it rises at the first clock edge after the reset.
  logic live_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) live_q <= 1'b0;
    else         live_q <= 1'b1;
  end

  // ---------------------------------------------------------------- the accepted operation
  logic fire, mac, load, clear;
  logic m_fp16, m_int8, m_i8f16, m_f16i8, m_int4, m_max, m_min, m_cmp;
  logic a_fp, b_fp;  // the data / kernel operand is an fp16 value in this mode
  always_comb begin
    fire    = live_q && in_valid_i && in_ready_o;
    mac     = fire && (in_cmd_i == 2'(ane_pkg::CmdMac));
    load    = fire && (in_cmd_i == 2'(ane_pkg::CmdLoad));
    clear   = fire && (in_cmd_i == 2'(ane_pkg::CmdClear));
    m_fp16  = mac && (in_mode_i == 3'(ane_pkg::ModeFp16));
    m_int8  = mac && (in_mode_i == 3'(ane_pkg::ModeInt8));
    m_i8f16 = mac && (in_mode_i == 3'(ane_pkg::ModeI8xF16));
    m_f16i8 = mac && (in_mode_i == 3'(ane_pkg::ModeF16xI8));
    m_int4  = mac && (in_mode_i == 3'(ane_pkg::ModeInt4));
    m_max   = mac && (in_mode_i == 3'(ane_pkg::ModeCmpMax));
    m_min   = mac && (in_mode_i == 3'(ane_pkg::ModeCmpMin));
    m_cmp   = m_max || m_min;
    a_fp    = m_fp16 || m_f16i8 || m_cmp;
    b_fp    = m_fp16 || m_i8f16;
  end

  // ---------------------------------------------------------------- operand classes (N-0.1 codes)
  logic a_nan, a_pinf, a_ninf, a_nzero, a_zero, a_den, a_norm, a_neg;
  logic b_nan, b_pinf, b_ninf, b_nzero, b_zero, b_den, b_norm, b_neg;
  logic a_inf, b_inf, a_one, b_one;
  logic [5:0] esum;  // biased exponent sum of two normal fp16 operands
  always_comb begin
    a_nan   = (in_data_i[14:10] == 5'h1F) && (in_data_i[9:0] != 10'd0);
    a_pinf  = in_data_i == 16'h7C00;
    a_ninf  = in_data_i == 16'hFC00;
    a_inf   = a_pinf || a_ninf;
    a_nzero = in_data_i == 16'h8000;
    a_zero  = in_data_i[14:0] == 15'd0;
    a_den   = (in_data_i[14:10] == 5'h00) && (in_data_i[9:0] != 10'd0);
    a_norm  = (in_data_i[14:10] != 5'h00) && (in_data_i[14:10] != 5'h1F);
    a_neg   = in_data_i[15];
    a_one   = in_data_i[14:0] == 15'h3C00;
    b_nan   = (in_kernel_i[14:10] == 5'h1F) && (in_kernel_i[9:0] != 10'd0);
    b_pinf  = in_kernel_i == 16'h7C00;
    b_ninf  = in_kernel_i == 16'hFC00;
    b_inf   = b_pinf || b_ninf;
    b_nzero = in_kernel_i == 16'h8000;
    b_zero  = in_kernel_i[14:0] == 15'd0;
    b_den   = (in_kernel_i[14:10] == 5'h00) && (in_kernel_i[9:0] != 10'd0);
    b_norm  = (in_kernel_i[14:10] != 5'h00) && (in_kernel_i[14:10] != 5'h1F);
    b_neg   = in_kernel_i[15];
    b_one   = in_kernel_i[14:0] == 15'h3C00;
    esum    = {1'b0, in_data_i[14:10]} + {1'b0, in_kernel_i[14:10]};
  end

  // ---------------------------------------------------------------- conditions
  // N-1 operand classes, per side, in the modes where that side is an fp16 operand
  logic c_a_nan, c_a_nan_neg, c_a_pinf, c_a_ninf, c_a_nzero, c_a_den;
  logic c_b_nan, c_b_nan_neg, c_b_pinf, c_b_ninf, c_b_nzero, c_b_den;
  // N-2.2 / N-2.3 products (fp16 x fp16; mixed modes where an int8 side is 0)
  logic c_nan_x_zero, c_zero_x_inf, c_int_zero_x_inf, c_inf_x_neg, c_inf_x_ninf;
  logic c_den_x_den, c_den_x_inf, c_den_x_norm, c_den_x_one, c_prod_lt_2m14, c_prod_lt_2m24;
  // N-2.1 / N-2.8 integer operands
  logic c_i8f16_min, c_f16i8_min, c_int8_min_x_min, c_int8_max_x_min, c_int4_all_min, c_int4_base4;
  // N-2.9 compare data
  logic c_cmp_nan, c_cmp_den, c_cmp_nzero, c_cmp_ninf, c_cmp_first;
  // N-2.5 loaded values ({kernel, data} as fp32 bits)
  logic c_ld_nan, c_ld_inf, c_ld_nzero, c_ld_den, c_ld_ceiling, c_ld_int_ends;
  logic [31:0] ld;
  always_comb begin
    c_a_nan     = a_fp && a_nan;
    c_a_nan_neg = a_fp && a_nan && a_neg;
    c_a_pinf    = a_fp && a_pinf;
    c_a_ninf    = a_fp && a_ninf;
    c_a_nzero   = a_fp && a_nzero;
    c_a_den     = a_fp && a_den;
    c_b_nan     = b_fp && b_nan;
    c_b_nan_neg = b_fp && b_nan && b_neg;
    c_b_pinf    = b_fp && b_pinf;
    c_b_ninf    = b_fp && b_ninf;
    c_b_nzero   = b_fp && b_nzero;
    c_b_den     = b_fp && b_den;

    c_nan_x_zero     = m_fp16 && ((a_nan && b_zero) || (a_zero && b_nan));
    c_zero_x_inf     = m_fp16 && ((a_zero && b_inf) || (a_inf && b_zero));
    c_int_zero_x_inf = (m_i8f16 && (in_data_i[7:0] == 8'd0) && (b_inf || b_nan)) ||
                       (m_f16i8 && (in_kernel_i[7:0] == 8'd0) && (a_inf || a_nan));
    c_inf_x_neg      = m_fp16 && ((a_inf && b_neg && b_norm) || (b_inf && a_neg && a_norm));
    c_inf_x_ninf     = m_fp16 && ((a_pinf && b_ninf) || (a_ninf && b_pinf));
    c_den_x_den      = m_fp16 && a_den && b_den;
    c_den_x_inf      = m_fp16 && ((a_den && (b_inf || b_nan)) || ((a_inf || a_nan) && b_den));
    c_den_x_norm     = m_fp16 && ((a_den && b_norm) || (a_norm && b_den));
    c_den_x_one      = m_fp16 && ((a_den && b_one) || (a_one && b_den));
    // two normal operands whose product is below 2^-14 (below 2^-24): |p| < 2^(ea + eb - 28)
    c_prod_lt_2m14   = m_fp16 && a_norm && b_norm && (esum <= 6'd14);
    c_prod_lt_2m24   = m_fp16 && a_norm && b_norm && (esum <= 6'd4);

    c_i8f16_min      = m_i8f16 && (in_data_i[7:0] == 8'h80);
    c_f16i8_min      = m_f16i8 && (in_kernel_i[7:0] == 8'h80);
    c_int8_min_x_min = m_int8 && (in_data_i[7:0] == 8'h80) && (in_kernel_i[7:0] == 8'h80);
    c_int8_max_x_min = m_int8 && (((in_data_i[7:0] == 8'h7F) && (in_kernel_i[7:0] == 8'h80)) ||
                                  ((in_data_i[7:0] == 8'h80) && (in_kernel_i[7:0] == 8'h7F)));
    c_int4_all_min   = m_int4 && (in_data_i == 16'h8888) && (in_kernel_i[3:0] == 4'h8);
    c_int4_base4     = m_int4 && (in_slot_i == 3'd4);

    c_cmp_nan   = m_cmp && a_nan;
    c_cmp_den   = m_cmp && a_den;
    c_cmp_nzero = m_cmp && a_nzero;
    c_cmp_ninf  = m_cmp && a_ninf;
    c_cmp_first = m_cmp && in_first_i;

    ld            = {in_kernel_i, in_data_i};
    c_ld_nan      = load && (ld[30:23] == 8'hFF) && (ld[22:0] != 23'd0);
    c_ld_inf      = load && (ld[30:0] == 31'h7F80_0000);
    c_ld_nzero    = load && (ld == 32'h8000_0000);
    c_ld_den      = load && (ld[30:23] == 8'h00) && (ld[22:0] != 23'd0);
    c_ld_ceiling  = load && (ld[30:0] >= 31'h46FF_F000) && (ld[30:23] != 8'hFF);  // |v| >= 32760
    c_ld_int_ends = load && ((ld[31:20] == 12'h7FF) || (ld[31:20] == 12'h800));    // near INT32 ends
  end

  // ---------------------------------------------------------------- the bins, per generation
  if (Gen == ane_pkg::GenM1) begin : g_m1
    always_ff @(posedge clk_i) begin
      N1_1_data_nan_m1:             cover (c_a_nan);
      N1_1_data_nan_negative_m1:    cover (c_a_nan_neg);
      N1_1_data_pinf_m1:            cover (c_a_pinf);
      N2_2_data_ninf_m1:            cover (c_a_ninf);
      N1_2_data_neg_zero_m1:        cover (c_a_nzero);
      N1_3_data_denormal_m1:        cover (c_a_den);
      N1_1_kernel_nan_m1:           cover (c_b_nan);
      N1_1_kernel_nan_negative_m1:  cover (c_b_nan_neg);
      N1_1_kernel_pinf_m1:          cover (c_b_pinf);
      N2_2_kernel_ninf_m1:          cover (c_b_ninf);
      N1_2_kernel_neg_zero_m1:      cover (c_b_nzero);
      N1_3_kernel_denormal_m1:      cover (c_b_den);
      N2_1_mode_fp16_m1:            cover (m_fp16);
      N2_8_mode_int8_m1:            cover (m_int8);
      N2_1_mode_int8_x_fp16_m1:     cover (m_i8f16);
      N2_1_mode_fp16_x_int8_m1:     cover (m_f16i8);
      N2_8_mode_int4_m1:            cover (m_int4);
      N2_9_mode_cmp_max_m1:         cover (m_max);
      N2_9_mode_cmp_min_m1:         cover (m_min);
      N1_1_nan_times_zero_m1:       cover (c_nan_x_zero);
      N2_2_zero_times_inf_m1:       cover (c_zero_x_inf);
      N2_2_int_zero_times_inf_m1:   cover (c_int_zero_x_inf);
      N2_2_inf_times_negative_m1:   cover (c_inf_x_neg);
      N2_2_pinf_times_ninf_m1:      cover (c_inf_x_ninf);
      N2_3_denorm_times_denorm_m1:  cover (c_den_x_den);
      N2_3_denorm_times_inf_m1:     cover (c_den_x_inf);
      N2_3_denorm_times_normal_m1:  cover (c_den_x_norm);
      N2_3_denorm_times_one_m1:     cover (c_den_x_one);
      N2_3_normal_product_below_2m14_m1: cover (c_prod_lt_2m14);
      N2_3_normal_product_below_2m24_m1: cover (c_prod_lt_2m24);
      N2_1_int8_data_minus128_m1:   cover (c_i8f16_min);
      N2_1_int8_kernel_minus128_m1: cover (c_f16i8_min);
      N2_8_int8_min_times_min_m1:   cover (c_int8_min_x_min);
      N2_8_int8_max_times_min_m1:   cover (c_int8_max_x_min);
      N2_8_int4_all_minus8_m1:      cover (c_int4_all_min);
      N2_8_int4_base_slot_4_m1:     cover (c_int4_base4);
      N2_9_cmp_data_nan_m1:         cover (c_cmp_nan);
      N2_9_cmp_data_denormal_m1:    cover (c_cmp_den);
      N2_9_cmp_data_neg_zero_m1:    cover (c_cmp_nzero);
      N2_9_cmp_data_ninf_m1:        cover (c_cmp_ninf);
      N2_9_cmp_first_m1:            cover (c_cmp_first);
      N2_5_cmd_load_m1:             cover (load);
      N2_5_cmd_clear_m1:            cover (clear);
      N2_5_load_nan_m1:             cover (c_ld_nan);
      N2_5_load_inf_m1:             cover (c_ld_inf);
      N2_5_load_neg_zero_m1:        cover (c_ld_nzero);
      N2_5_load_denormal_m1:        cover (c_ld_den);
      N2_5_load_at_or_above_32760_m1: cover (c_ld_ceiling);
      N2_8_load_near_int32_ends_m1: cover (c_ld_int_ends);
    end
  end else begin : g_m5
    always_ff @(posedge clk_i) begin
      N1_1_data_nan_m5:             cover (c_a_nan);
      N1_1_data_nan_negative_m5:    cover (c_a_nan_neg);
      N1_1_data_pinf_m5:            cover (c_a_pinf);
      N2_2_data_ninf_m5:            cover (c_a_ninf);
      N1_2_data_neg_zero_m5:        cover (c_a_nzero);
      N1_3_data_denormal_m5:        cover (c_a_den);
      N1_1_kernel_nan_m5:           cover (c_b_nan);
      N1_1_kernel_nan_negative_m5:  cover (c_b_nan_neg);
      N1_1_kernel_pinf_m5:          cover (c_b_pinf);
      N2_2_kernel_ninf_m5:          cover (c_b_ninf);
      N1_2_kernel_neg_zero_m5:      cover (c_b_nzero);
      N1_3_kernel_denormal_m5:      cover (c_b_den);
      N2_1_mode_fp16_m5:            cover (m_fp16);
      N2_8_mode_int8_m5:            cover (m_int8);
      N2_1_mode_int8_x_fp16_m5:     cover (m_i8f16);
      N2_1_mode_fp16_x_int8_m5:     cover (m_f16i8);
      N2_8_mode_int4_m5:            cover (m_int4);
      N2_9_mode_cmp_max_m5:         cover (m_max);
      N2_9_mode_cmp_min_m5:         cover (m_min);
      N1_1_nan_times_zero_m5:       cover (c_nan_x_zero);
      N2_2_zero_times_inf_m5:       cover (c_zero_x_inf);
      N2_2_int_zero_times_inf_m5:   cover (c_int_zero_x_inf);
      N2_2_inf_times_negative_m5:   cover (c_inf_x_neg);
      N2_2_pinf_times_ninf_m5:      cover (c_inf_x_ninf);
      N2_3_denorm_times_denorm_m5:  cover (c_den_x_den);
      N2_3_denorm_times_inf_m5:     cover (c_den_x_inf);
      N2_3_denorm_times_normal_m5:  cover (c_den_x_norm);
      N2_3_denorm_times_one_m5:     cover (c_den_x_one);
      N2_3_normal_product_below_2m14_m5: cover (c_prod_lt_2m14);
      N2_3_normal_product_below_2m24_m5: cover (c_prod_lt_2m24);
      N2_1_int8_data_minus128_m5:   cover (c_i8f16_min);
      N2_1_int8_kernel_minus128_m5: cover (c_f16i8_min);
      N2_8_int8_min_times_min_m5:   cover (c_int8_min_x_min);
      N2_8_int8_max_times_min_m5:   cover (c_int8_max_x_min);
      N2_8_int4_all_minus8_m5:      cover (c_int4_all_min);
      N2_8_int4_base_slot_4_m5:     cover (c_int4_base4);
      N2_9_cmp_data_nan_m5:         cover (c_cmp_nan);
      N2_9_cmp_data_denormal_m5:    cover (c_cmp_den);
      N2_9_cmp_data_neg_zero_m5:    cover (c_cmp_nzero);
      N2_9_cmp_data_ninf_m5:        cover (c_cmp_ninf);
      N2_9_cmp_first_m5:            cover (c_cmp_first);
      N2_5_cmd_load_m5:             cover (load);
      N2_5_cmd_clear_m5:            cover (clear);
      N2_5_load_nan_m5:             cover (c_ld_nan);
      N2_5_load_inf_m5:             cover (c_ld_inf);
      N2_5_load_neg_zero_m5:        cover (c_ld_nzero);
      N2_5_load_denormal_m5:        cover (c_ld_den);
      N2_5_load_at_or_above_32760_m5: cover (c_ld_ceiling);
      N2_8_load_near_int32_ends_m5: cover (c_ld_int_ends);
    end
  end

endmodule

bind ane_mac_lane ane_mac_lane_cov #(.Gen(Gen)) u_cov (.*);

`default_nettype wire
// verilator coverage_on
