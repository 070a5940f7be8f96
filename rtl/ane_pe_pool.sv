// SPDX-License-Identifier: Apache-2.0
// ane_pe_pool: the planar engine's pooling path (NUMERICS N-4.5, N-4.4; docs/planar.md): the
// first filter (horizontal), the line buffer, and the second filter (vertical).
//
// A plane of NumLanes channels arrives in raster order, one position (NumLanes fp16 values)
// per beat; the pooled plane leaves in raster order, one output position per beat. Each window
// is the oracle's tree: element (ky, kx) is tree input 8 ky + kx, so levels 1-3 reduce within a
// window row and levels 4-6 across rows. The unit computes it separably:
//
//   walker     steps over positions (y, x), y in 0 .. max(H, last window row + 1) - 1 and x
//              likewise: a position within the plane takes one input beat, one in the bottom or
//              right padding is generated (no beat). An eight-deep shift register per lane
//              holds the row's last eight positions.
//   filter 1   when a window's last column passes (x = ox * sx - pl + KW - 1), the window row's
//              KW elements enter an 8-input tree (levels 1-3, kx at input kx, the padding and
//              kx >= KW as the identity): the row partial hp[ox], fp32.
//   line buf   hp[ox] is written to bank y mod 8 at address ox (retained: with stride < KH a row
//              partial serves several output rows). Eight banks hold the last eight rows.
//   filter 2   when the row is a window's last row (y = oy * sy - pt + KH - 1), the KH row
//              partials of column ox (the current one bypassed, the others read from the banks,
//              rows outside the plane as the identity) enter the second 8-input tree (levels
//              4-6, ky at input ky): the window's fp32 result.
//   store      max / min: RNE16 with the plain fp16 range (ane_mac_out at m5); mean: the sum
//              divided exactly by the number of real elements, rounded once (ane_pe_mean,
//              pipelined).
//
// Stages: S0 walker; S1 the window row; S2 its elements widened (N-1, exact fp32); filter 1 in
// S3-S11 (three stages per tree level: ane_pe_node with Pipe = 1, align | add | normalize and
// round, then its result register); S11 the line buffer (write, read, the second filter's
// inputs), S12 those inputs; filter 2 in S13-S21; the store in S22-S26 (ane_pe_mean with
// Pipe = 1: its division stages end in S21 - S25 and its rounding is S26; the max / min store
// carried alongside); S27 the output register (the mean, the max / min store and the
// operator, selected after it). A beat accepted in cycle t whose position ends a window gives
// that window's result in cycle t + 27. The stages advance together and stall only while a
// result waits at the output; the walker takes one position per cycle.
//
// Configuration (cfg_*) is taken when the walker is idle (cfg_ready_o) and describes one plane:
// op (ane_pkg::pe_tree_op_e: sum for a mean, max, min), H, W, the output size OH, OW (1 .. MaxOutW; the caller computes
// them from the padding: OH = (H + pt + pb - KH) / sy + 1), the window KH, KW (1..8), the
// stride sy, sx (1..8) and the top and left padding (< KH, < KW). Tokens carry what they need,
// so the next plane's configuration is taken while the last results are still in flight.
`default_nettype none

module ane_pe_pool #(
  parameter int NumLanes = 4,
  parameter int MaxOutW  = 16,   // line buffer depth: the widest output row
  parameter int CntW     = 12    // H, W, OH, OW up to 2^CntW - 1
) (
  input  wire logic                   clk_i,
  input  wire logic                   rst_ni,
  input  wire logic                   cfg_valid_i,
  output      logic                   cfg_ready_o,
  input  wire ane_pkg::pe_tree_op_e   cfg_op_i,
  input  wire logic [CntW-1:0]        cfg_h_i,
  input  wire logic [CntW-1:0]        cfg_w_i,
  input  wire logic [CntW-1:0]        cfg_oh_i,
  input  wire logic [CntW-1:0]        cfg_ow_i,
  input  wire logic [3:0]             cfg_kh_i,
  input  wire logic [3:0]             cfg_kw_i,
  input  wire logic [3:0]             cfg_sy_i,
  input  wire logic [3:0]             cfg_sx_i,
  input  wire logic [2:0]             cfg_pt_i,
  input  wire logic [2:0]             cfg_pl_i,
  input  wire logic                   in_valid_i,
  output      logic                   in_ready_o,
  input  wire logic [NumLanes*16-1:0] in_data_i,
  output      logic                   out_valid_o,
  input  wire logic                   out_ready_i,
  output      logic [NumLanes*16-1:0] out_data_o,
  output      logic                   busy_o      // walker active or results in flight
);

  localparam int L16 = NumLanes * 16;
  localparam int L32 = NumLanes * 32;
  localparam int OxW = (MaxOutW > 1) ? $clog2(MaxOutW) : 1;
  localparam int PW  = CntW + 2;                  // positions: up to H - 1 + 7

  logic en;
  assign en = !out_valid_o || out_ready_i;

  // ---------------------------------------------------------------- walker (S0)
  logic            act_q;
  logic [1:0]      op_q;
  logic [CntW-1:0] h_q, w_q, oh_q, ow_q, ox_q, oy_q;
  logic [3:0]      kh_q, kw_q, sy_q, sx_q;
  logic [2:0]      pl_q, bank_q;
  logic [PW-1:0]   y_q, x_q, hend_q, vend_q;
  logic [7:0]      rv_q;                          // row j back lies within the plane
  logic [6:0]      cv_q;                          // column j + 1 back lies within the plane
                                                  // (a row outside it is masked by rv_q)
  logic [7*L16-1:0] sr_q;                         // entry j: the position j + 1 steps back

  logic            real_pos, step, hend, row_out, row_done, op_done;
  logic [8*L16-1:0] sr_n;
  logic [7:0]      cv_n, cmask, rmask;
  logic [CntW-1:0] ox_n;
  logic [8*L16-1:0] win;                          // window row, kx-th entry at kx
  logic [3:0]      ncols, nrows;

  assign cfg_ready_o = !act_q;

  // The last column (row) of the first window: KW - 1 - pl (KH - 1 - pt), never negative.
  logic [3:0] cfg_hend0, cfg_vend0, hend0;
  assign cfg_hend0 = cfg_kw_i - 4'd1 - {1'b0, cfg_pl_i};
  assign cfg_vend0 = cfg_kh_i - 4'd1 - {1'b0, cfg_pt_i};
  assign hend0     = kw_q - 4'd1 - {1'b0, pl_q};

  always_comb begin
    real_pos = (y_q < PW'(h_q)) && (x_q < PW'(w_q));
    step     = act_q && en && (!real_pos || in_valid_i);
    sr_n     = {sr_q, real_pos ? in_data_i : {L16{1'b0}}};
    cv_n     = {cv_q, x_q < PW'(w_q)};             // the column, in any row
    hend     = (x_q == hend_q) && (ox_q < ow_q);
    row_out  = (y_q == vend_q) && (oy_q < oh_q);
    ox_n     = ox_q + CntW'(hend);
    row_done = !((x_q + PW'(1) < PW'(w_q)) || (ox_n < ow_q));
    op_done  = row_done && !((y_q + PW'(1) < PW'(h_q)) || (oy_q + CntW'(row_out) < oh_q));
    // The window row: input kx is the position KW - 1 - kx steps back.
    for (int kx = 0; kx < 8; kx++) begin
      win[kx*L16 +: L16] = sr_n[(3'(kw_q - 4'd1 - 4'(kx)))*L16 +: L16];
      cmask[kx] = (4'(kx) < kw_q) && cv_n[3'(kw_q - 4'd1 - 4'(kx))];
      rmask[kx] = (4'(kx) < kh_q) && rv_q[3'(kh_q - 4'd1 - 4'(kx))];
    end
    ncols = 4'($countones(cmask));
    nrows = 4'($countones(rmask));
  end
  assign in_ready_o = act_q && en && real_pos;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) act_q <= 1'b0;
    else if (cfg_valid_i && cfg_ready_o) act_q <= 1'b1;
    else if (step && op_done) act_q <= 1'b0;
  end

  always_ff @(posedge clk_i) begin
    if (cfg_valid_i && cfg_ready_o) begin
      op_q   <= cfg_op_i;
      h_q    <= cfg_h_i;
      w_q    <= cfg_w_i;
      oh_q   <= cfg_oh_i;
      ow_q   <= cfg_ow_i;
      kh_q   <= cfg_kh_i;
      kw_q   <= cfg_kw_i;
      sy_q   <= cfg_sy_i;
      sx_q   <= cfg_sx_i;
      pl_q   <= cfg_pl_i;
      y_q    <= '0;
      x_q    <= '0;
      ox_q   <= '0;
      oy_q   <= '0;
      hend_q <= PW'(cfg_hend0);
      vend_q <= PW'(cfg_vend0);
      bank_q <= 3'd0;
      rv_q   <= 8'd1;                             // row 0 lies within the plane (H >= 1)
      cv_q   <= 7'd0;
    end else if (step) begin
      if (row_done) begin
        y_q    <= y_q + PW'(1);
        x_q    <= '0;
        ox_q   <= '0;
        hend_q <= PW'(hend0);
        bank_q <= bank_q + 3'd1;
        rv_q   <= {rv_q[6:0], y_q + PW'(1) < PW'(h_q)};
        cv_q   <= 7'd0;
        if (row_out) begin
          oy_q   <= oy_q + CntW'(1);
          vend_q <= vend_q + PW'(sy_q);
        end
      end else begin
        x_q    <= x_q + PW'(1);
        ox_q   <= ox_n;
        if (hend) hend_q <= hend_q + PW'(sx_q);
        cv_q   <= cv_n[6:0];
        sr_q   <= sr_n[7*L16-1:0];
      end
    end
  end

  // ---------------------------------------------------------------- tokens
  // A token per window row. Stage numbers: S1 the window row, S2 widened, filter 1's levels in
  // S3-S5, S6-S8, S9-S11 (three stages per level: ane_pe_node with Pipe = 1 and its result
  // register), S11 the row partial and the line buffer, S12 filter 2's inputs, its levels in
  // S13-S15, S16-S18, S19-S21, the store's division in S22-S26 (rounding in S26), S27 the
  // output register.
  localparam int SLb  = 11;                       // the line buffer stage
  localparam int SSt  = 21;                       // the window's fp32 result
  localparam int SOut = 27;                       // the output register
  logic [8*L16-1:0] s1_win_q;
  logic [7:0]       s1_cmask_q;
  // Per-stage fields as shift registers, stage s at field s - 1.
  logic [(SOut-1)*2-1:0] op_sr;                   // S1 .. S26
  logic [SSt*7-1:0]      n_sr;                    // S1 .. S21
  logic [SLb-1:0]        vout_sr;                 // S1 .. S11
  logic [SLb*OxW-1:0]    ox_sr;
  logic [SLb*3-1:0]      bank_sr;
  logic [SLb*4-1:0]      kh_sr;
  logic [SLb*8-1:0]      rmask_sr;
  logic [SOut:1]         v_q;                     // S1 .. S27 (the output register)
  logic [1:0]       op1, op2, op5, op8, opl, op12, op15, op18, opo;
  logic [6:0]       nst;
  logic [OxW-1:0]   oxl;
  logic [2:0]       bankl;
  logic [3:0]       khl;
  logic [7:0]       rmaskl;
  assign op1    = op_sr[0 +: 2];
  assign op2    = op_sr[2 +: 2];
  assign op5    = op_sr[8 +: 2];
  assign op8    = op_sr[14 +: 2];
  assign opl    = op_sr[(SLb-1)*2 +: 2];
  assign op12   = op_sr[22 +: 2];
  assign op15   = op_sr[28 +: 2];
  assign op18   = op_sr[34 +: 2];
  assign opo    = op_sr[(SOut-2)*2 +: 2];       // S26: the rounding stage
  assign nst    = n_sr[(SSt-1)*7 +: 7];
  assign oxl    = ox_sr[(SLb-1)*OxW +: OxW];
  assign bankl  = bank_sr[(SLb-1)*3 +: 3];
  assign khl    = kh_sr[(SLb-1)*4 +: 4];
  assign rmaskl = rmask_sr[(SLb-1)*8 +: 8];
  assign out_valid_o = v_q[SOut];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) v_q <= '0;
    else if (en) v_q <= {v_q[SOut-1:SLb+1], v_q[SLb] && vout_sr[SLb-1], v_q[SLb-1:1], step && hend};
  end

  always_ff @(posedge clk_i) begin
    if (en) begin
      s1_win_q     <= win;
      s1_cmask_q   <= cmask;
      op_sr        <= {op_sr[(SOut-2)*2-1:0], op_q};
      n_sr         <= {n_sr[(SSt-1)*7-1:0], 7'(ncols * nrows)};
      vout_sr      <= {vout_sr[SLb-2:0], row_out};
      ox_sr        <= {ox_sr[(SLb-1)*OxW-1:0], OxW'(ox_q)};
      bank_sr      <= {bank_sr[(SLb-1)*3-1:0], bank_q};
      kh_sr        <= {kh_sr[(SLb-1)*4-1:0], kh_q};
      rmask_sr     <= {rmask_sr[(SLb-1)*8-1:0], rmask};
    end
  end

  // ---------------------------------------------------------------- filter 1 (S2 - S11)
  logic [8*L32-1:0] h0, s2_q;
  logic [4*L32-1:0] h1, s5_q;
  logic [2*L32-1:0] h2, s8_q;
  logic [L32-1:0]   h3, hp_q;

  for (genvar l = 0; l < NumLanes; l = l + 1) begin : g_h
    for (genvar k = 0; k < 8; k = k + 1) begin : g_in
      ane_pe_widen u_widen (.op_i(op1), .valid_i(s1_cmask_q[k]),
                            .x_i(s1_win_q[k*L16 + l*16 +: 16]), .y_o(h0[(l*8 + k)*32 +: 32]));
    end
    for (genvar k = 0; k < 4; k = k + 1) begin : g_l1
      ane_pe_node #(.Pipe(1'b1)) u_node (.clk_i(clk_i), .en_i(en), .op_i(op2),
        .a_i(s2_q[(l*8 + 2*k)*32 +: 32]), .b_i(s2_q[(l*8 + 2*k + 1)*32 +: 32]),
        .y_o(h1[(l*4 + k)*32 +: 32]));
    end
    for (genvar k = 0; k < 2; k = k + 1) begin : g_l2
      ane_pe_node #(.Pipe(1'b1)) u_node (.clk_i(clk_i), .en_i(en), .op_i(op5),
        .a_i(s5_q[(l*4 + 2*k)*32 +: 32]), .b_i(s5_q[(l*4 + 2*k + 1)*32 +: 32]),
        .y_o(h2[(l*2 + k)*32 +: 32]));
    end
    ane_pe_node #(.Pipe(1'b1)) u_l3 (.clk_i(clk_i), .en_i(en), .op_i(op8),
      .a_i(s8_q[(l*2)*32 +: 32]), .b_i(s8_q[(l*2 + 1)*32 +: 32]), .y_o(h3[l*32 +: 32]));
  end

  // ---------------------------------------------------------------- line buffer (S11)
  // Bank b holds the row partials of the last row y with y mod 8 = b, at address ox.
  logic [8*L32-1:0] rd;
  for (genvar b = 0; b < 8; b = b + 1) begin : g_bank
    logic [L32-1:0] mem_q [MaxOutW];
    always_ff @(posedge clk_i) begin
      if (en && v_q[SLb] && bankl == 3'(b)) mem_q[oxl] <= hp_q;
    end
    assign rd[b*L32 +: L32] = mem_q[oxl];
  end

  // ---------------------------------------------------------------- filter 2 (S12 - S21)
  // Input ky is row y - (KH - 1 - ky): the current row (bypassed) for ky = KH - 1. The inputs
  // are selected in S11 (the line buffer's read) and registered (S12).
  logic [8*L32-1:0] v0, s12_q;
  logic [4*L32-1:0] v1, s15_q;
  logic [2*L32-1:0] v2, s18_q;
  logic [L32-1:0]   v3, sst_q;
  logic [31:0]      identl;

  always_comb begin
    identl = ane_pkg::pe_tree_identity(opl);
    for (int ky = 0; ky < 8; ky++) begin
      for (int l = 0; l < NumLanes; l++) begin
        if (!rmaskl[ky]) begin
          v0[(l*8 + ky)*32 +: 32] = identl;
        end else if (4'(ky) == khl - 4'd1) begin
          v0[(l*8 + ky)*32 +: 32] = hp_q[l*32 +: 32];
        end else begin
          v0[(l*8 + ky)*32 +: 32] =
            rd[(3'(bankl - 3'(khl - 4'd1 - 4'(ky))))*L32 + l*32 +: 32];
        end
      end
    end
  end

  for (genvar l = 0; l < NumLanes; l = l + 1) begin : g_v
    for (genvar k = 0; k < 4; k = k + 1) begin : g_l4
      ane_pe_node #(.Pipe(1'b1)) u_node (.clk_i(clk_i), .en_i(en), .op_i(op12),
        .a_i(s12_q[(l*8 + 2*k)*32 +: 32]), .b_i(s12_q[(l*8 + 2*k + 1)*32 +: 32]),
        .y_o(v1[(l*4 + k)*32 +: 32]));
    end
    for (genvar k = 0; k < 2; k = k + 1) begin : g_l5
      ane_pe_node #(.Pipe(1'b1)) u_node (.clk_i(clk_i), .en_i(en), .op_i(op15),
        .a_i(s15_q[(l*4 + 2*k)*32 +: 32]), .b_i(s15_q[(l*4 + 2*k + 1)*32 +: 32]),
        .y_o(v2[(l*2 + k)*32 +: 32]));
    end
    ane_pe_node #(.Pipe(1'b1)) u_l6 (.clk_i(clk_i), .en_i(en), .op_i(op18),
      .a_i(s18_q[(l*2)*32 +: 32]), .b_i(s18_q[(l*2 + 1)*32 +: 32]), .y_o(v3[l*32 +: 32]));
  end

  // ---------------------------------------------------------------- store (S22 - S27)
  // mean: ane_pe_mean's five division stages (S21 - S25) and its rounding (S26); max / min:
  // the fp16 store of the window's value, carried alongside. The output register (S27) holds
  // both and the operator: the selection comes after it, out of the rounding stage.
  logic [L16-1:0] mean_q, ext_out;
  logic           mean_op_q;
  for (genvar l = 0; l < NumLanes; l = l + 1) begin : g_store
    logic [15:0] mean, ext;
    logic [6*16-1:0] ext_q;                       // S22 .. S27
    ane_pe_mean #(.Pipe(1'b1)) u_mean (.clk_i(clk_i), .en_i(en), .sum_i(sst_q[l*32 +: 32]),
                                       .n_i(nst), .y_o(mean));
    ane_mac_out #(.Gen(ane_pkg::GenM5)) u_ext (.acc_i(sst_q[l*32 +: 32]), .fp16_o(ext));
    always_ff @(posedge clk_i) begin
      if (en) begin
        ext_q                <= {ext_q[5*16-1:0], ext};
        mean_q[l*16 +: 16]   <= mean;
      end
    end
    assign ext_out[l*16 +: 16] = ext_q[5*16 +: 16];
  end

  always_ff @(posedge clk_i) begin
    if (en) begin
      s2_q   <= h0;
      s5_q   <= h1;
      s8_q   <= h2;
      hp_q   <= h3;
      s12_q  <= v0;
      s15_q  <= v1;
      s18_q  <= v2;
      sst_q  <= v3;
      mean_op_q <= opo == ane_pkg::PeTreeSum;
    end
  end
  assign out_data_o = mean_op_q ? mean_q : ext_out;
  assign busy_o     = act_q || (v_q != '0);

`ifndef SYNTHESIS
  // A legal configuration; an offered beat stays offered until it is taken.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
    end else if (cfg_valid_i && cfg_ready_o) begin
      assert(cfg_op_i <= ane_pkg::PeTreeMin);
      assert(cfg_kh_i >= 4'd1 && cfg_kh_i <= 4'd8 && cfg_kw_i >= 4'd1 && cfg_kw_i <= 4'd8);
      assert(cfg_sy_i >= 4'd1 && cfg_sy_i <= 4'd8 && cfg_sx_i >= 4'd1 && cfg_sx_i <= 4'd8);
      assert({1'b0, cfg_pt_i} < cfg_kh_i && {1'b0, cfg_pl_i} < cfg_kw_i);
      assert(cfg_h_i != '0 && cfg_w_i != '0 && cfg_oh_i != '0 && cfg_ow_i != '0);
      assert(cfg_ow_i <= CntW'(MaxOutW));
    end
  end
  logic held_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) held_q <= 1'b0;
    else begin
      if (held_q) assert(in_valid_i);
      held_q <= in_valid_i && !in_ready_o && act_q;
    end
  end
`endif

endmodule
