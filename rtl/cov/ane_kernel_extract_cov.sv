// SPDX-License-Identifier: Apache-2.0
// ane_kernel_extract_cov: functional-coverage bins of the kernel extract ane_kernel_extract
// (NUMERICS N-6 compressed kernels: N-6.1 int8 symmetric with a per-tensor or per-kernel
// scale, N-6.2 palettes of 1, 2, 4, 6 and 8 index bits, N-6.3 sparse keep masks and the
// interior-quad skip; N-2.1 the kernel operands, their formats, slots and the two- and
// four-kernel mappings; N-2.4's quad lattice; N-2.8 the raw integer kernels; N-3.1 the
// parameter records; docs/kernel_extract.md): every kernel format dense and sparse, the two-
// and four-kernel mappings with the formats that carry them, every slot count, parameter
// records, reductions of one step, of one short quad, ending on and inside a
// quad; skipped blocks and idle quads, zero blocks kept in the first and last quad, dropped
// coefficients; the last palette entry at each width; int8 codes at the ends of the range and
// the dequantization's overflow, subnormal and signed-zero results. Header bins read the
// header's handshake (state SHdr && hdr_go, fields in the window); schedule bins the body's
// step (body_go / issue); field bins stage P advancing (p_valid_q && en, with the header that
// stage P decodes against); result bins the operation port's handshake (op_valid_o &&
// op_ready_i, with the int8sym flags of the stage it left, carried here on the unit's enable).
// Bound to every ane_kernel_extract only in the coverage build (the bind at the end of this
// file); never synthesized. Nothing here drives the design.
`default_nettype none

// Line and toggle counters off in this file (its helper logic is not the design); the cover
// statements (v_user points) count regardless.
// verilator coverage_off
module ane_kernel_extract_cov (
  input wire logic        clk_i,
  input wire logic        rst_ni,
  input wire logic        pp_valid_o,
  input wire logic        pp_ready_i,
  input wire logic        op_valid_o,
  input wire logic        op_ready_i,
  input wire logic [15:0] op_coef_a_o,
  input wire logic [15:0] op_coef_b_o,
  input wire logic [15:0] op_coef_c_o,
  input wire logic [15:0] op_coef_d_o,
  input wire logic        op_first_o,
  input wire logic        op_last_o,
  // the unit's own signals: the configuration, the parser state and window, the header, the
  // schedule, stage P and D2
  input wire logic [15:0] k_q,
  input wire logic [2:0]  state_q,
  input wire logic [95:0] win_q,
  input wire logic [7:0]  cnt_q,
  input wire logic        hdr_go,
  input wire logic [2:0]  fmt_q,
  input wire logic        sparse_q,
  input wire logic        two_q,
  input wire logic        four_q,
  input wire logic        pcs_q,
  input wire logic [3:0]  pbits_q,
  input wire logic [2:0]  rm1_q,
  input wire logic        en,
  input wire logic        body_go,
  input wire logic        issue,
  input wire logic        idle_quad,
  input wire logic        at_qstart,
  input wire logic [15:0] qs_q,
  input wire logic        lq_q,
  input wire logic        int_q,
  input wire logic [63:0] masks,
  input wire logic [7:0]  kept,
  input wire logic        st_a,
  input wire logic        st_b,
  input wire logic        p_valid_q,
  input wire logic [63:0] p_raw_q,
  input wire logic [3:0]  p_st_q,
  input wire logic [7:0]  pmask,
  input wire logic [3:0]  d2_mul_q
);

  // Reset released: the covers read this flop, not rst_ni (a clocked read of the asynchronous
  // reset is SYNCASYNCNET); it rises at the first clock edge after the reset.
  logic live_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) live_q <= 1'b0;
    else         live_q <= 1'b1;
  end

  localparam logic [2:0] SHdr = 3'd0;
  localparam logic [2:0] FmtInt8 = 3'd1, FmtPal = 3'd2, FmtRaw8 = 3'd3, FmtRaw4 = 3'd4;

  // ---- the header in the window (docs/kernel_extract.md, H0) ----
  logic       hfire;
  logic [2:0] h_fmt, h_rm1;
  logic       h_sparse, h_two, h_pcs, h_params, h_four;
  logic [3:0] h_pb;
  assign hfire    = live_q && state_q == SHdr && hdr_go;
  assign h_fmt    = win_q[2:0];
  assign h_sparse = win_q[3];
  assign h_two    = win_q[4];
  assign h_pcs    = win_q[5];
  assign h_params = win_q[6];
  assign h_pb     = win_q[10:7];
  assign h_rm1    = win_q[13:11];
  assign h_four   = win_q[14];

  // ---- the schedule ----
  logic       bgo, ifire, pfire, ofire;
  logic [7:0] all_slots;
  logic       zero_blk;
  assign bgo       = live_q && body_go;
  assign ifire     = live_q && issue;
  assign pfire     = live_q && en && p_valid_q;
  assign ofire     = live_q && op_valid_o && op_ready_i;
  assign all_slots = 8'((9'd2 << rm1_q) - 9'd1);
  // some slot of the group has every keep bit of the quad at 0 (A and B in two-kernel mode)
  always_comb begin
    zero_blk = 1'b0;
    for (int j = 0; j < 8; j++) begin
      if (3'(j) <= rm1_q) zero_blk |= two_q ? masks[8*j +: 8] == 8'd0 : masks[4*j +: 4] == 4'd0;
    end
  end

  // ---- stage P's fields: int8 codes at the ends of the range ----
  logic i8_min, i8_max, raw8_min, raw4_min;
  always_comb begin
    {i8_min, i8_max, raw8_min, raw4_min} = '0;
    for (int k = 0; k < 4; k++) begin
      if (p_st_q[k]) begin
        i8_min |= p_raw_q[16*k +: 8] == 8'h80;
        i8_max |= p_raw_q[16*k +: 8] == 8'h7F || p_raw_q[16*k +: 8] == 8'h81;
      end
    end
    raw8_min = p_st_q[0] && p_raw_q[7:0] == 8'h80;
    raw4_min = p_st_q[0] && p_raw_q[3:0] == 4'h8;
  end

  // ---- the operation port: the int8sym coefficients' results ----
  logic [3:0] o_mul_q;   // the output register's int8sym coefficients (D2's, one register on)
  always_ff @(posedge clk_i) begin
    if (en) o_mul_q <= d2_mul_q;
  end
  logic dq_inf, dq_sub, dq_negz;
  always_comb begin
    logic [63:0] co;
    co = {op_coef_d_o, op_coef_c_o, op_coef_b_o, op_coef_a_o};
    {dq_inf, dq_sub, dq_negz} = '0;
    for (int k = 0; k < 4; k++) begin
      if (o_mul_q[k]) begin
        dq_inf  |= co[16*k +: 15] == 15'h7C00;
        dq_sub  |= co[16*k+10 +: 5] == 5'd0 && co[16*k +: 10] != 10'd0;
        dq_negz |= co[16*k +: 16] == ane_pkg::Fp16NegZero;
      end
    end
  end

  // (the ports' bits no bin reads)
  logic unused;
  assign unused = ^{win_q[95:15], p_raw_q[63:56], p_raw_q[47:40], p_raw_q[31:24], p_raw_q[15:8]};

  // N-6: every format (0 fp16, 1 int8sym, 2 palette, 3 raw8, 4 raw4), dense and sparse; the
  // two- and four-kernel mappings with the formats whose coefficients are fp16 (0 .. 2).
  if (1) begin : g_fmt_0
    always_ff @(posedge clk_i) begin
      N2_1_kernel_format_0:   cover (hfire && h_fmt == 3'(0));
      N2_1_dense_format_0:    cover (hfire && h_fmt == 3'(0) && !h_sparse);
      N6_3_sparse_format_0:   cover (hfire && h_fmt == 3'(0) && h_sparse);
      N3_1_params_format_0:   cover (hfire && h_fmt == 3'(0) && h_params);
    end
    if (1) begin : g_multi
      always_ff @(posedge clk_i) begin
        N2_1_two_kernel_0:        cover (hfire && h_fmt == 3'(0) && h_two);
        N6_3_two_kernel_sparse_0: cover (hfire && h_fmt == 3'(0) && h_two && h_sparse);
        N2_1_four_kernel_0:       cover (hfire && h_fmt == 3'(0) && h_four);
      end
    end
  end
  if (1) begin : g_fmt_1
    always_ff @(posedge clk_i) begin
      N2_1_kernel_format_1:   cover (hfire && h_fmt == 3'(1));
      N2_1_dense_format_1:    cover (hfire && h_fmt == 3'(1) && !h_sparse);
      N6_3_sparse_format_1:   cover (hfire && h_fmt == 3'(1) && h_sparse);
      N3_1_params_format_1:   cover (hfire && h_fmt == 3'(1) && h_params);
    end
    if (1) begin : g_multi
      always_ff @(posedge clk_i) begin
        N2_1_two_kernel_1:        cover (hfire && h_fmt == 3'(1) && h_two);
        N6_3_two_kernel_sparse_1: cover (hfire && h_fmt == 3'(1) && h_two && h_sparse);
        N2_1_four_kernel_1:       cover (hfire && h_fmt == 3'(1) && h_four);
      end
    end
  end
  if (1) begin : g_fmt_2
    always_ff @(posedge clk_i) begin
      N2_1_kernel_format_2:   cover (hfire && h_fmt == 3'(2));
      N2_1_dense_format_2:    cover (hfire && h_fmt == 3'(2) && !h_sparse);
      N6_3_sparse_format_2:   cover (hfire && h_fmt == 3'(2) && h_sparse);
      N3_1_params_format_2:   cover (hfire && h_fmt == 3'(2) && h_params);
    end
    if (1) begin : g_multi
      always_ff @(posedge clk_i) begin
        N2_1_two_kernel_2:        cover (hfire && h_fmt == 3'(2) && h_two);
        N6_3_two_kernel_sparse_2: cover (hfire && h_fmt == 3'(2) && h_two && h_sparse);
        N2_1_four_kernel_2:       cover (hfire && h_fmt == 3'(2) && h_four);
      end
    end
  end
  if (1) begin : g_fmt_3
    always_ff @(posedge clk_i) begin
      N2_1_kernel_format_3:   cover (hfire && h_fmt == 3'(3));
      N2_1_dense_format_3:    cover (hfire && h_fmt == 3'(3) && !h_sparse);
      N6_3_sparse_format_3:   cover (hfire && h_fmt == 3'(3) && h_sparse);
      N3_1_params_format_3:   cover (hfire && h_fmt == 3'(3) && h_params);
    end
  end
  if (1) begin : g_fmt_4
    always_ff @(posedge clk_i) begin
      N2_1_kernel_format_4:   cover (hfire && h_fmt == 3'(4));
      N2_1_dense_format_4:    cover (hfire && h_fmt == 3'(4) && !h_sparse);
      N6_3_sparse_format_4:   cover (hfire && h_fmt == 3'(4) && h_sparse);
      N3_1_params_format_4:   cover (hfire && h_fmt == 3'(4) && h_params);
    end
  end

  // N-6.2: every palette index width b in {1, 2, 4, 6, 8}: the header, sparse, and the last
  // entry (index 2^b - 1) read.
  if (1) begin : g_pal_1b
    localparam logic [3:0] B = (0 == 0) ? 4'd1 : (0 == 1) ? 4'd2 : (0 == 2) ? 4'd4 : (0 == 3) ? 4'd6 : 4'd8;
    always_ff @(posedge clk_i) begin
      N6_2_palette_bits_1b:        cover (hfire && h_fmt == FmtPal && h_pb == B);
      N6_2_palette_bits_sparse_1b: cover (hfire && h_fmt == FmtPal && h_pb == B && h_sparse);
      N6_2_palette_last_entry_1b:  cover (pfire && fmt_q == FmtPal && pbits_q == B && p_st_q[0] &&
                                       (p_raw_q[7:0] & pmask) == pmask);
    end
  end
  if (1) begin : g_pal_2b
    localparam logic [3:0] B = (1 == 0) ? 4'd1 : (1 == 1) ? 4'd2 : (1 == 2) ? 4'd4 : (1 == 3) ? 4'd6 : 4'd8;
    always_ff @(posedge clk_i) begin
      N6_2_palette_bits_2b:        cover (hfire && h_fmt == FmtPal && h_pb == B);
      N6_2_palette_bits_sparse_2b: cover (hfire && h_fmt == FmtPal && h_pb == B && h_sparse);
      N6_2_palette_last_entry_2b:  cover (pfire && fmt_q == FmtPal && pbits_q == B && p_st_q[0] &&
                                       (p_raw_q[7:0] & pmask) == pmask);
    end
  end
  if (1) begin : g_pal_4b
    localparam logic [3:0] B = (2 == 0) ? 4'd1 : (2 == 1) ? 4'd2 : (2 == 2) ? 4'd4 : (2 == 3) ? 4'd6 : 4'd8;
    always_ff @(posedge clk_i) begin
      N6_2_palette_bits_4b:        cover (hfire && h_fmt == FmtPal && h_pb == B);
      N6_2_palette_bits_sparse_4b: cover (hfire && h_fmt == FmtPal && h_pb == B && h_sparse);
      N6_2_palette_last_entry_4b:  cover (pfire && fmt_q == FmtPal && pbits_q == B && p_st_q[0] &&
                                       (p_raw_q[7:0] & pmask) == pmask);
    end
  end
  if (1) begin : g_pal_6b
    localparam logic [3:0] B = (3 == 0) ? 4'd1 : (3 == 1) ? 4'd2 : (3 == 2) ? 4'd4 : (3 == 3) ? 4'd6 : 4'd8;
    always_ff @(posedge clk_i) begin
      N6_2_palette_bits_6b:        cover (hfire && h_fmt == FmtPal && h_pb == B);
      N6_2_palette_bits_sparse_6b: cover (hfire && h_fmt == FmtPal && h_pb == B && h_sparse);
      N6_2_palette_last_entry_6b:  cover (pfire && fmt_q == FmtPal && pbits_q == B && p_st_q[0] &&
                                       (p_raw_q[7:0] & pmask) == pmask);
    end
  end
  if (1) begin : g_pal_8b
    localparam logic [3:0] B = (4 == 0) ? 4'd1 : (4 == 1) ? 4'd2 : (4 == 2) ? 4'd4 : (4 == 3) ? 4'd6 : 4'd8;
    always_ff @(posedge clk_i) begin
      N6_2_palette_bits_8b:        cover (hfire && h_fmt == FmtPal && h_pb == B);
      N6_2_palette_bits_sparse_8b: cover (hfire && h_fmt == FmtPal && h_pb == B && h_sparse);
      N6_2_palette_last_entry_8b:  cover (pfire && fmt_q == FmtPal && pbits_q == B && p_st_q[0] &&
                                       (p_raw_q[7:0] & pmask) == pmask);
    end
  end

  // Every slot count R = 1 .. 8.
  if (1) begin : g_slots_0
    always_ff @(posedge clk_i) begin
      N2_1_slots_0: cover (hfire && h_rm1 == 3'(0));
    end
  end
  if (1) begin : g_slots_1
    always_ff @(posedge clk_i) begin
      N2_1_slots_1: cover (hfire && h_rm1 == 3'(1));
    end
  end
  if (1) begin : g_slots_2
    always_ff @(posedge clk_i) begin
      N2_1_slots_2: cover (hfire && h_rm1 == 3'(2));
    end
  end
  if (1) begin : g_slots_3
    always_ff @(posedge clk_i) begin
      N2_1_slots_3: cover (hfire && h_rm1 == 3'(3));
    end
  end
  if (1) begin : g_slots_4
    always_ff @(posedge clk_i) begin
      N2_1_slots_4: cover (hfire && h_rm1 == 3'(4));
    end
  end
  if (1) begin : g_slots_5
    always_ff @(posedge clk_i) begin
      N2_1_slots_5: cover (hfire && h_rm1 == 3'(5));
    end
  end
  if (1) begin : g_slots_6
    always_ff @(posedge clk_i) begin
      N2_1_slots_6: cover (hfire && h_rm1 == 3'(6));
    end
  end
  if (1) begin : g_slots_7
    always_ff @(posedge clk_i) begin
      N2_1_slots_7: cover (hfire && h_rm1 == 3'(7));
    end
  end

  always_ff @(posedge clk_i) begin
    // ---- N-6.1: int8 symmetric ----
    N6_1_scale_per_tensor:       cover (hfire && h_fmt == FmtInt8 && !h_pcs);
    N6_1_scale_per_kernel:       cover (hfire && h_fmt == FmtInt8 && h_pcs);
    N6_1_per_kernel_two_kernel:  cover (hfire && h_fmt == FmtInt8 && h_pcs && h_two);
    N6_1_per_kernel_four_kernel: cover (hfire && h_fmt == FmtInt8 && h_pcs && h_four);
    N6_1_q_min_minus_128:        cover (pfire && fmt_q == FmtInt8 && i8_min);
    N6_1_q_plus_minus_127:       cover (pfire && fmt_q == FmtInt8 && i8_max);
    N6_1_dequant_overflow_inf:   cover (ofire && dq_inf);
    N6_1_dequant_subnormal:      cover (ofire && dq_sub);
    N6_1_dequant_neg_zero:       cover (ofire && dq_negz);
    // ---- raw integer kernels (N-2.8) ----
    N2_8_raw8_min:               cover (pfire && fmt_q == FmtRaw8 && raw8_min);
    N2_8_raw4_min:               cover (pfire && fmt_q == FmtRaw4 && raw4_min);
    // ---- the widest groups ----
    N2_1_four_kernel_32_kernels: cover (hfire && h_four && h_rm1 == 3'd7);
    N6_3_sparse_16_kernel_masks: cover (hfire && h_sparse && h_two && h_rm1 == 3'd7);
    // ---- N-2.4: the reduction's length against the quad lattice ----
    N2_4_k_one_step:             cover (hfire && k_q == 16'd1);
    N2_4_k_one_short_quad:       cover (hfire && k_q > 16'd1 && k_q < 16'd4);
    N2_4_k_ends_on_quad:         cover (hfire && k_q >= 16'd4 && k_q[1:0] == 2'd0);
    N2_4_k_ends_inside_quad:     cover (hfire && k_q > 16'd4 && k_q[1:0] != 2'd0);
    N2_4_op_first_and_last:      cover (ofire && op_first_o && op_last_o);
    // ---- N-6.3: the skip ----
    N6_3_idle_quad:              cover (bgo && idle_quad);
    N6_3_block_skipped:          cover (bgo && at_qstart && sparse_q && int_q && kept != 8'd0 &&
                                        kept != all_slots);
    N6_3_first_quad_zero_block_kept: cover (bgo && at_qstart && sparse_q && qs_q == 16'd0 && !lq_q && zero_blk);
    N6_3_last_quad_zero_block_kept:  cover (bgo && at_qstart && sparse_q && qs_q != 16'd0 && lq_q && zero_blk);
    N6_3_coef_dropped:           cover (ifire && sparse_q && !st_a);
    N6_3_coef_b_dropped:         cover (ifire && sparse_q && two_q && st_a && !st_b);
    // ---- the mappings' operations ----
    N2_1_two_kernel_op:          cover (ifire && two_q);
    N2_1_four_kernel_op:         cover (ifire && four_q);
    N6_1_per_kernel_scale_op:    cover (ifire && fmt_q == FmtInt8 && pcs_q);
    // ---- the header's wait and the ports ----
    N6_2_header_waits_for_stage_p: cover (live_q && state_q == SHdr && cnt_q >= 8'd32 && p_valid_q);
    N2_1_op_back_pressure:       cover (live_q && op_valid_o && !op_ready_i);
    N3_1_pp_back_pressure:       cover (live_q && pp_valid_o && !pp_ready_i);
  end

endmodule

bind ane_kernel_extract ane_kernel_extract_cov u_cov (.*);

`default_nettype wire
// verilator coverage_on
