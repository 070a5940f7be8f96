// SPDX-License-Identifier: Apache-2.0
// ane_td_setup: the layer set-up between the TD fetch (ane_td_fetch) and the neural-engine core
// (ane_core): it takes one TD's register writes, checks that the TD is a layer the core runs,
// plans the layer as the driver's C++ planner does (tb/plan/core_plan.cc PlanCoreLayer;
// docs/td_fetch.md, "Layer set-up"), starts the kernel DMA (ane_td_kdma) and the table
// conversion (ane_td_table), writes the core's configuration registers, starts the core, and
// reports task done to the fetch when the core is done.
//
// Per TD:
//   1. capture: the words the mapping reads (docs/td.md, "From fields to an operation") are
//      kept as they pass (the Planar stream's and source 1's too; on a neural-engine TD they are
//      ORed: they must be zero). One write per cycle.
//   2. check (one cycle): a field the model does not run holding a value no real program
//      carries for the TD's kind (error 5, ErrFixed: ane_td_rules, generated from the register
//      description and the real programs; err_addr_o/err_header_o name the first such word),
//      the fields the engines cannot run (error 1, ErrField: formats, operation, the chain
//      fields, a planar task of one source or int8 data, a second source on the neural engine,
//      kernel DMA channels not 0..E-1, ...), the shapes (error 2, ErrShape:
//      zero sizes, the output size that does not follow from input, kernel, stride and padding,
//      a per-element pass that is not 1x1), and what is past the core's registers (error 3,
//      ErrCore: kernels above 7x7, sizes above 4095, ...).
//   3. plan, on one sequential unit (shift-add multiply or restoring divide, one bit a cycle,
//      ending early when the multiplier runs out of ones): Cg = Cin/G and per = Cout/G (a
//      remainder: ErrShape), the output-size check, the tile (tile_w = min(OW, lanes), tile_h =
//      min(OH, lanes/tile_w), then one row (else one column) less until a channel's patch fits
//      the bank: patch_h bpr 8 <= BankBytes and bpr <= 63), channels per work unit, the grid,
//      the passes (G ppg), the kernel steps (Cg KH KW), the shifter's channel stride. ErrCore
//      when a field overflows its core register.
//   A planar task (Header[8].ENE 0, assumption A18) is checked for what the planar engine runs
//   (two fp16 sources, one shape, no neural-engine field) and configures ane_planar instead: its
//   21 registers (MODE .. DPLANE) and START on the pe_cfg port, then it waits for pe_done_i.
//   4. configure: the kernel DMA and (lookup table) the table conversion start; the four shifter
//      writes; wait for the core's PREP (busy low); post-processor CTRL and SEED; the table's 37
//      writes as the conversion hands them over (ErrTable if it fails); the 17 core writes; wait
//      for the kernel DMA; START; wait for done_o; task_done_o.
// An error stops the layer before the core is configured (no kernel DMA, no write); error_o and
// err_code_o/err_td_o stay until clear_i. The TDs after it are taken and dropped (task_done_o
// at once) so that the fetch finishes the walk.
//
// The core's configuration port has no back-pressure: one write a cycle (cfg_*_o registered).
// Set-up cycles per TD (capture excluded) are counted on st_setup_o (the last TD's).
`default_nettype none

module ane_td_setup #(
  parameter int unsigned NumLanes  = 256,  // the core's lanes (lane positions of a tile)
  parameter int unsigned BankBytes = 512,  // the core's planar bank
  parameter int unsigned BeatBytes = 8,    // the core's input beat
  parameter int unsigned NumBars   = 32,   // buffer-table entries (5-bit TD indices)
  parameter int unsigned TdW       = 13    // bits of a TD index
) (
  input  wire logic                 clk_i,
  input  wire logic                 rst_ni,
  input  wire logic                 clear_i,    // a new walk: clears the error
  input  wire logic [NumBars*32-1:0] bar_i,     // buffer-table byte addresses (entry i at [32i +: 32])
  input  wire logic [31:0]          kstage_i,   // kernel staging region for the core (64-aligned)
  // from ane_td_fetch
  input  wire logic                 wr_valid_i,
  output      logic                 wr_ready_o,
  input  wire logic [23:0]          wr_addr_i,
  input  wire logic [31:0]          wr_data_i,
  input  wire logic                 wr_header_i,
  input  wire logic [TdW-1:0]       wr_td_i,
  input  wire logic                 wr_last_i,
  output      logic                 task_done_o,
  output      logic                 busy_o,     // a TD is being planned or run
  output      logic                 error_o,
  output      logic [2:0]           err_code_o,
  output      logic [TdW-1:0]       err_td_o,
  output      logic [23:0]          err_addr_o,   // ErrFixed: the first refused word's address
  output      logic                 err_header_o, // ... a header word (err_addr_o its TD offset)
  output      logic [31:0]          st_setup_o, // cycles from the TD's last write to START
  // core configuration
  output      logic                 cfg_we_o,
  output      logic [7:0]           cfg_addr_o,
  output      logic [31:0]          cfg_wdata_o,
  input  wire logic                 core_busy_i,
  input  wire logic                 core_done_i,
  // planar engine configuration (ane_planar)
  output      logic                 pe_cfg_we_o,
  output      logic [5:0]           pe_cfg_addr_o,
  output      logic [31:0]          pe_cfg_wdata_o,
  input  wire logic                 pe_busy_i,
  input  wire logic                 pe_done_i,
  // kernel DMA
  output      logic                 kd_start_o,
  output      logic [16*32-1:0]     kd_chan_base_o,
  output      logic [4:0]           kd_nchan_o,
  output      logic [15:0]          kd_steps_o,
  output      logic                 kd_fp16_o,
  output      logic [9:0]           kd_per_o,
  output      logic [3:0]           kd_nk_full_o,
  output      logic [9:0]           kd_ppg_o,
  output      logic [3:0]           kd_nk_last_o,
  output      logic [10:0]          kd_passes_o,
  output      logic                 kd_params_o,
  output      logic [15:0]          kd_scale_o,
  output      logic                 kd_bias_in_o, // each kernel block starts with its bias (BiasMode 1)
  input  wire logic                 kd_busy_i,
  input  wire logic                 kd_err_i,   // a bias in a kernel block is not finite
  // table conversion
  output      logic                 tb_start_o,
  output      logic [31:0]          tb_base_o,
  input  wire logic                 tb_busy_i,
  input  wire logic                 tb_error_i,
  input  wire logic                 tb_wr_valid_i,
  output      logic                 tb_wr_ready_o,
  input  wire logic [5:0]           tb_wr_addr_i,
  input  wire logic [31:0]          tb_wr_data_i
);

  localparam int unsigned ErrField = 1, ErrShape = 2, ErrCore = 3, ErrTable = 4, ErrFixed = 5;
  localparam int unsigned W = 20;  // the sequential unit's operands

  // ---------------------------------------------------------------- capture
  // the buffer-table entries the header names (bar_i is fixed during a walk), read when the
  // header word passes so that a base word's sum starts from a register
  logic [31:0] sbar_q, dbar_q, kbar_q, s1bar_q;
  logic [31:0] h8_q, h9_q, indim_q, chcfg_q, cin_q, cout_q, outdim_q, conv_q, grp_q;
  logic [31:0] sdma_q, srow_q, splane_q, sfmt_q, ddma_q, drow_q, dplane_q, dfmt_q;
  logic [31:0] kcfg_q, mac_q, pscale_q, h0_q, h1_q, ccfg_q;
  logic [15:0] ken_q;
  logic [15:0] koff_nz_q, ksz1_q, ksz0_q;  // kernel channel c: a nonzero block offset, a size of one block, of none
  logic        planar_nz_q, src1_nz_q, sgs_nz_q, dgs_nz_q;
  // Byte addresses, added as their words pass (the header, with the buffer indices, comes
  // first): one buffer-table read and one adder.
  logic [31:0] xbase_q, ybase_q, tbase_q;
  logic [16*32-1:0] kbase_q;
  logic [31:0] s1base_q, s1row_q, s1plane_q, s1fmt_q, pcfg_q, ppost_q, ps0s_q;  // a planar task's

  // register address of a stream word
  function automatic logic hit(input logic [23:0] a, input logic [31:0] reg_addr);
    hit = {8'd0, a} == reg_addr;
  endfunction

  logic take;
  assign take = wr_valid_i && wr_ready_o;

  always_ff @(posedge clk_i) begin
    if (take) begin
      if (wr_header_i) begin
        if (wr_addr_i == ane_regs_pkg::TdHeader0Off[23:0]) h0_q <= wr_data_i;
        if (wr_addr_i == ane_regs_pkg::TdHeader1Off[23:0]) h1_q <= wr_data_i;
        if (wr_addr_i == ane_regs_pkg::TdHeader8Off[23:0]) begin
          h8_q   <= wr_data_i;
          sbar_q <= bar_i[32*wr_data_i[ane_regs_pkg::TdHeader8RBase0Lsb +: ane_regs_pkg::TdHeader8RBase0Width] +: 32];
          s1bar_q <= bar_i[32*wr_data_i[ane_regs_pkg::TdHeader8RBase1Lsb +: ane_regs_pkg::TdHeader8RBase1Width] +: 32];
          dbar_q <= bar_i[32*wr_data_i[ane_regs_pkg::TdHeader8WBaseLsb +: ane_regs_pkg::TdHeader8WBaseWidth] +: 32];
        end
        if (wr_addr_i == ane_regs_pkg::TdHeader9KBase0Off[23:0]) begin
          h9_q   <= wr_data_i;
          kbar_q <= bar_i[32*wr_data_i[ane_regs_pkg::TdHeader9KBase0Lsb +: ane_regs_pkg::TdHeader9KBase0Width] +: 32];
        end
      end else begin
        if (hit(wr_addr_i, ane_regs_pkg::TdCommonInDimAddr)) indim_q <= wr_data_i;
        if (hit(wr_addr_i, ane_regs_pkg::TdCommonChCfgAddr)) chcfg_q <= wr_data_i;
        if (hit(wr_addr_i, ane_regs_pkg::TdCommonCinAddr)) cin_q <= wr_data_i;
        if (hit(wr_addr_i, ane_regs_pkg::TdCommonCoutAddr)) cout_q <= wr_data_i;
        if (hit(wr_addr_i, ane_regs_pkg::TdCommonOutDimAddr)) outdim_q <= wr_data_i;
        if (hit(wr_addr_i, ane_regs_pkg::TdCommonConvCfgAddr)) conv_q <= wr_data_i;
        if (hit(wr_addr_i, ane_regs_pkg::TdCommonGroupConvCfgAddr)) grp_q <= wr_data_i;
        if (hit(wr_addr_i, ane_regs_pkg::TdCommonCfgAddr)) ccfg_q <= wr_data_i;
        if (hit(wr_addr_i, ane_regs_pkg::TdTileDMASrcDMAConfigAddr)) sdma_q <= wr_data_i;
        if (hit(wr_addr_i, ane_regs_pkg::TdTileDMASrcBaseAddrAddr)) xbase_q <= src_sum;
        if (hit(wr_addr_i, ane_regs_pkg::TdTileDMASrcRowStrideAddr)) srow_q <= wr_data_i;
        if (hit(wr_addr_i, ane_regs_pkg::TdTileDMASrcPlaneStrideAddr)) splane_q <= wr_data_i;
        if (hit(wr_addr_i, ane_regs_pkg::TdTileDMASrcFmtAddr)) sfmt_q <= wr_data_i;
        if (hit(wr_addr_i, ane_regs_pkg::TdTileDMADstDMAConfigAddr)) ddma_q <= wr_data_i;
        if (hit(wr_addr_i, ane_regs_pkg::TdTileDMADstBaseAddrAddr)) ybase_q <= dst_sum;
        if (hit(wr_addr_i, ane_regs_pkg::TdTileDMADstRowStrideAddr)) drow_q <= wr_data_i;
        if (hit(wr_addr_i, ane_regs_pkg::TdTileDMADstPlaneStrideAddr)) dplane_q <= wr_data_i;
        if (hit(wr_addr_i, ane_regs_pkg::TdTileDMADstFmtAddr)) dfmt_q <= wr_data_i;
        if (hit(wr_addr_i, ane_regs_pkg::TdNEKernelCfgAddr)) kcfg_q <= wr_data_i;
        if (hit(wr_addr_i, ane_regs_pkg::TdNEMACCfgAddr)) mac_q <= wr_data_i;
        if (hit(wr_addr_i, ane_regs_pkg::TdNEPostScaleAddr)) pscale_q <= wr_data_i;
        if (hit(wr_addr_i, ane_regs_pkg::TdTileDMASrcSrc1BaseAddrAddr)) s1base_q <= s1_sum;
        if (hit(wr_addr_i, ane_regs_pkg::TdTileDMASrcSrc1RowStrideAddr)) s1row_q <= wr_data_i;
        if (hit(wr_addr_i, ane_regs_pkg::TdTileDMASrcSrc1PlaneStrideAddr)) s1plane_q <= wr_data_i;
        if (hit(wr_addr_i, ane_regs_pkg::TdTileDMASrcSrc1FmtAddr)) s1fmt_q <= wr_data_i;
        if (hit(wr_addr_i, ane_regs_pkg::TdPlanarCfgAddr)) pcfg_q <= wr_data_i;
        if (hit(wr_addr_i, ane_regs_pkg::TdPlanarPostAddr)) ppost_q <= wr_data_i;
        if (hit(wr_addr_i, ane_regs_pkg::TdPlanarSrc0ScaleAddr)) ps0s_q <= wr_data_i;
      end
    end
  end

  // The kernel DMA channels' words: En of CoeffDMAConfig[c], Addr of CoeffBaseAddr[c].
  for (genvar c = 0; c < 16; c++) begin : g_kch
    localparam int unsigned CfgA = ane_regs_pkg::TdKernelDMASrcCoeffDMAConfigAddr + 4 * c;
    localparam int unsigned BaseA = ane_regs_pkg::TdKernelDMASrcCoeffBaseAddrAddr + 4 * c;
    localparam int unsigned SizeA = ane_regs_pkg::TdKernelDMASrcCoeffBfrSizeAddr + 4 * c;
    always_ff @(posedge clk_i) begin
      if (take && !wr_header_i && hit(wr_addr_i, CfgA)) begin
        ken_q[c] <= wr_data_i[ane_regs_pkg::TdKernelDMASrcCoeffDMAConfigEnLsb];
      end
      if (take && !wr_header_i && hit(wr_addr_i, BaseA)) begin
        kbase_q[32*c +: 32] <= k_sum;
        koff_nz_q[c] <= wr_data_i[ane_regs_pkg::TdKernelDMASrcCoeffBaseAddrAddrLsb +:
                                  ane_regs_pkg::TdKernelDMASrcCoeffBaseAddrAddrWidth] != '0;
      end
      if (take && !wr_header_i && hit(wr_addr_i, SizeA)) begin
        ksz1_q[c] <= wr_data_i[ane_regs_pkg::TdKernelDMASrcCoeffBfrSizeMemBfrSizeLsb +:
                               ane_regs_pkg::TdKernelDMASrcCoeffBfrSizeMemBfrSizeWidth] == 26'd1;
        ksz0_q[c] <= wr_data_i[ane_regs_pkg::TdKernelDMASrcCoeffBfrSizeMemBfrSizeLsb +:
                               ane_regs_pkg::TdKernelDMASrcCoeffBfrSizeMemBfrSizeWidth] == 26'd0;
      end
    end
  end

  // the table: the last enabled channel's block. A TD that runs has channels 0 .. E-1 enabled
  // (the field checks below refuse any other set), so the last one is the enabled channel whose
  // successor is not. Its base is chosen from the channels' registers one cycle later (the table
  // loader starts many cycles after the last word), with no count of the enable bits in the path.
  logic [15:0] klast;
  logic [31:0] tsel;
  always_comb begin
    klast = ken_q & ~{1'b0, ken_q[15:1]};
    tsel  = '0;
    for (int c = 0; c < 16; c++) tsel = tsel | ({32{klast[c]}} & kbase_q[32*c +: 32]);
  end
  always_ff @(posedge clk_i) tbase_q <= tsel;

  logic planar_word, src1_word, sgs_word, dgs_word;
  assign planar_word = !wr_header_i && wr_addr_i >= ane_regs_pkg::TdPlanarAddr[23:0] &&
                       wr_addr_i < ane_regs_pkg::TdPlanarAddr[23:0] + 24'(4 * ane_regs_pkg::TdPlanarWords);
  // the second source's words (its base, strides but the inert depth stride, format)
  assign src1_word = !wr_header_i && (hit(wr_addr_i, ane_regs_pkg::TdTileDMASrcSrc1BaseAddrAddr) ||
                                      hit(wr_addr_i, ane_regs_pkg::TdTileDMASrcSrc1RowStrideAddr) ||
                                      hit(wr_addr_i, ane_regs_pkg::TdTileDMASrcSrc1PlaneStrideAddr) ||
                                      hit(wr_addr_i, ane_regs_pkg::TdTileDMASrcSrc1GroupStrideAddr) ||
                                      hit(wr_addr_i, ane_regs_pkg::TdTileDMASrcSrc1FmtAddr));
  assign sgs_word = !wr_header_i && (hit(wr_addr_i, ane_regs_pkg::TdTileDMASrcGroupStrideAddr) ||
                                     hit(wr_addr_i, ane_regs_pkg::TdTileDMASrcSrc1GroupStrideAddr));
  assign dgs_word = !wr_header_i && hit(wr_addr_i, ane_regs_pkg::TdTileDMADstGroupStrideAddr);

  // The fields the model does not run: per word, whether its fixed bits hold a value the real
  // programs carry for each kind of TD; ANDed over the TD, the first refused word kept per kind.
  logic [2:0]  rok;
  logic [2:0]  fix_bad_q;
  logic [3*25-1:0] fix_at_q;  // per kind: {header, address} of its first refused word
  ane_td_rules u_rules (.header_i(wr_header_i), .addr_i(wr_addr_i), .data_i(wr_data_i), .ok_o(rok));

  // ---------------------------------------------------------------- fields
  logic [14:0] win, hin, wout, hout;
  logic [16:0] cin, cout;
  logic [4:0]  kw, kh, px, py;
  logic [1:0]  sx, sy;
  logic [12:0] ngroups;
  logic [1:0]  infmt, outfmt, sfmt, dfmt, kfmt;
  logic [2:0]  opmode;
  logic        kmode, biasmode;
  logic [1:0]  nlmode;
  logic [15:0] pscale;
  logic [4:0]  rshift;
  logic        eon, tbe;
  logic [4:0]  tbase;
  logic [8:0]  nextsize;
  logic [2:0]  ene, active_ne;
  assign win     = indim_q[ane_regs_pkg::TdCommonInDimWinLsb +: ane_regs_pkg::TdCommonInDimWinWidth];
  assign hin     = indim_q[ane_regs_pkg::TdCommonInDimHinLsb +: ane_regs_pkg::TdCommonInDimHinWidth];
  assign wout    = outdim_q[ane_regs_pkg::TdCommonOutDimWoutLsb +: ane_regs_pkg::TdCommonOutDimWoutWidth];
  assign hout    = outdim_q[ane_regs_pkg::TdCommonOutDimHoutLsb +: ane_regs_pkg::TdCommonOutDimHoutWidth];
  assign cin     = cin_q[ane_regs_pkg::TdCommonCinCinLsb +: ane_regs_pkg::TdCommonCinCinWidth];
  assign cout    = cout_q[ane_regs_pkg::TdCommonCoutCoutLsb +: ane_regs_pkg::TdCommonCoutCoutWidth];
  assign kw      = conv_q[ane_regs_pkg::TdCommonConvCfgKwLsb +: ane_regs_pkg::TdCommonConvCfgKwWidth];
  assign kh      = conv_q[ane_regs_pkg::TdCommonConvCfgKhLsb +: ane_regs_pkg::TdCommonConvCfgKhWidth];
  assign sx      = conv_q[ane_regs_pkg::TdCommonConvCfgSxLsb +: ane_regs_pkg::TdCommonConvCfgSxWidth];
  assign sy      = conv_q[ane_regs_pkg::TdCommonConvCfgSyLsb +: ane_regs_pkg::TdCommonConvCfgSyWidth];
  assign px      = conv_q[ane_regs_pkg::TdCommonConvCfgPxLsb +: ane_regs_pkg::TdCommonConvCfgPxWidth];
  assign py      = conv_q[ane_regs_pkg::TdCommonConvCfgPyLsb +: ane_regs_pkg::TdCommonConvCfgPyWidth];
  assign ngroups = grp_q[ane_regs_pkg::TdCommonGroupConvCfgNumGroupsLsb +: ane_regs_pkg::TdCommonGroupConvCfgNumGroupsWidth];
  assign infmt   = chcfg_q[ane_regs_pkg::TdCommonChCfgInFmtLsb +: ane_regs_pkg::TdCommonChCfgInFmtWidth];
  assign outfmt  = chcfg_q[ane_regs_pkg::TdCommonChCfgOutFmtLsb +: ane_regs_pkg::TdCommonChCfgOutFmtWidth];
  assign sfmt    = sfmt_q[ane_regs_pkg::TdTileDMASrcFmtMemFmtLsb +: ane_regs_pkg::TdTileDMASrcFmtMemFmtWidth];
  assign dfmt    = dfmt_q[ane_regs_pkg::TdTileDMADstFmtMemFmtLsb +: ane_regs_pkg::TdTileDMADstFmtMemFmtWidth];
  assign kfmt    = kcfg_q[ane_regs_pkg::TdNEKernelCfgKernelFmtLsb +: ane_regs_pkg::TdNEKernelCfgKernelFmtWidth];
  assign opmode  = mac_q[ane_regs_pkg::TdNEMACCfgOpModeLsb +: ane_regs_pkg::TdNEMACCfgOpModeWidth];
  assign kmode   = mac_q[ane_regs_pkg::TdNEMACCfgKernelModeLsb];
  assign biasmode = mac_q[ane_regs_pkg::TdNEMACCfgBiasModeLsb];
  assign nlmode  = mac_q[ane_regs_pkg::TdNEMACCfgNonlinearModeLsb +: ane_regs_pkg::TdNEMACCfgNonlinearModeWidth];
  assign pscale  = pscale_q[ane_regs_pkg::TdNEPostScalePostScaleLsb +: ane_regs_pkg::TdNEPostScalePostScaleWidth];
  assign rshift  = pscale_q[ane_regs_pkg::TdNEPostScalePostRightShiftLsb +: ane_regs_pkg::TdNEPostScalePostRightShiftWidth];
  assign eon      = h0_q[ane_regs_pkg::TdHeader0EONLsb];
  assign nextsize = h1_q[ane_regs_pkg::TdHeader1NextSizeLsb +: ane_regs_pkg::TdHeader1NextSizeWidth];
  assign tbe      = h8_q[ane_regs_pkg::TdHeader8TBELsb];
  assign tbase    = h8_q[ane_regs_pkg::TdHeader8TBaseLsb +: ane_regs_pkg::TdHeader8TBaseWidth];
  assign ene      = h8_q[ane_regs_pkg::TdHeader8ENELsb +: ane_regs_pkg::TdHeader8ENEWidth];
  assign active_ne = ccfg_q[ane_regs_pkg::TdCommonCfgActiveNELsb +: ane_regs_pkg::TdCommonCfgActiveNEWidth];

  // the buffer-table entry of each kind of base word, plus the word's 64-byte offset: one sum
  // per kind (its table entry read with the header), so the word's address compare only picks
  // the register that takes its sum and is not in front of the add
  logic [31:0] src_sum, dst_sum, k_sum, s1_sum;
  assign src_sum = sbar_q + {wr_data_i[ane_regs_pkg::TdTileDMASrcBaseAddrAddrLsb +: ane_regs_pkg::TdTileDMASrcBaseAddrAddrWidth], 6'd0};
  assign dst_sum = dbar_q + {wr_data_i[ane_regs_pkg::TdTileDMADstBaseAddrAddrLsb +: ane_regs_pkg::TdTileDMADstBaseAddrAddrWidth], 6'd0};
  assign s1_sum  = s1bar_q + {wr_data_i[ane_regs_pkg::TdTileDMASrcSrc1BaseAddrAddrLsb +: ane_regs_pkg::TdTileDMASrcSrc1BaseAddrAddrWidth], 6'd0};
  assign k_sum   = kbar_q +
                   {wr_data_i[ane_regs_pkg::TdKernelDMASrcCoeffBaseAddrAddrLsb +: ane_regs_pkg::TdKernelDMASrcCoeffBaseAddrAddrWidth], 6'd0};

  // A format code a tensor of a task has: int8 or fp16 (None and code 3 are no tensor's format).
  function automatic logic known_fmt(logic [ane_regs_pkg::TdCommonChCfgInFmtWidth-1:0] f);
    known_fmt = f == ane_regs_pkg::TdFmtInt8 || f == ane_regs_pkg::TdFmtFp16;
  endfunction

  logic planar;     // a planar task (Header[8].ENE 0)
  logic pass;       // per-element pass (OpMode 4, KernelMode 1)
  logic int8;       // int8 x int8 (else fp16 x fp16)
  logic table_en;   // NonlinearMode 2
  logic scale_en, out8;
  logic [4:0] nen;  // kernel DMA channels enabled
  assign planar   = ene == '0;  // no neural engine
  assign pass     = opmode == ane_regs_pkg::TdOpModePass && kmode;
  assign int8     = infmt == ane_regs_pkg::TdFmtInt8;
  assign table_en = nlmode == ane_regs_pkg::TdNonlinearTable;
  assign scale_en = pscale != ane_pkg::Fp16One;
  assign out8     = int8 && outfmt == ane_regs_pkg::TdFmtInt8;
  assign nen      = 5'($countones(ken_q));

  // Error 5: a field the model does not run holds a value the real programs do not carry for
  // the TD's kind (tb/td/program.cc FixedFieldError refuses the same).
  logic [1:0] kind;  // the fixed rules' kind of TD (ane_regs_pkg::TdKind*)
  logic       bad_fixed;
  assign kind      = planar ? 2'(ane_regs_pkg::TdKindPlanar) : pass ? 2'(ane_regs_pkg::TdKindPass) : 2'(ane_regs_pkg::TdKindConv);
  assign bad_fixed = fix_bad_q[kind];

  // a planar task's fields (A18)
  logic [1:0]  pe_op, s1fmt, s1mem;
  logic        pe_binary;
  logic [15:0] pe_scale, pe_bias, pe_s0scale;
  assign pe_op      = pcfg_q[ane_regs_pkg::TdPlanarCfgOpLsb +: ane_regs_pkg::TdPlanarCfgOpWidth];
  assign pe_binary  = pcfg_q[ane_regs_pkg::TdPlanarCfgBinaryLsb];
  assign pe_scale   = ppost_q[ane_regs_pkg::TdPlanarPostScaleLsb +: ane_regs_pkg::TdPlanarPostScaleWidth];
  assign pe_bias    = ppost_q[ane_regs_pkg::TdPlanarPostBiasLsb +: ane_regs_pkg::TdPlanarPostBiasWidth];
  assign pe_s0scale = ps0s_q[ane_regs_pkg::TdPlanarSrc0ScaleScaleLsb +: ane_regs_pkg::TdPlanarSrc0ScaleScaleWidth];
  assign s1fmt      = chcfg_q[ane_regs_pkg::TdCommonChCfgSrc1FmtLsb +: ane_regs_pkg::TdCommonChCfgSrc1FmtWidth];
  assign s1mem      = s1fmt_q[ane_regs_pkg::TdTileDMASrcSrc1FmtMemFmtLsb +: ane_regs_pkg::TdTileDMASrcSrc1FmtMemFmtWidth];

  // Error 1: the fields the engines do not run (tb/td/program.cc Interpret refuses the same).
  logic bad_field, bad_ne, bad_pe;
  logic [15:0] kdis;  // the kernel DMA channels not enabled
  assign kdis = ~ken_q;
  always_comb begin
    bad_field = 1'b0;
    // the chain: the next TD from the TD buffer (TBE 1, TBase 0, NextSize one TD) unless the last
    if (tbe == eon || tbase != 5'd0 || nextsize != (eon ? 9'd0 : 9'(ane_regs_pkg::TdBytes / 4 - 1))) bad_field = 1'b1;
    if (!h8_q[ane_regs_pkg::TdHeader8RBE0Lsb] || !h8_q[ane_regs_pkg::TdHeader8WBELsb]) bad_field = 1'b1;
    if (!sdma_q[ane_regs_pkg::TdTileDMASrcDMAConfigEnLsb] || !ddma_q[ane_regs_pkg::TdTileDMADstDMAConfigEnLsb]) bad_field = 1'b1;
    if (!known_fmt(infmt) || !known_fmt(outfmt)) bad_field = 1'b1;
    if (sfmt != infmt || dfmt != outfmt) bad_field = 1'b1;
    if (ngroups > 13'd1 && (sgs_nz_q || dgs_nz_q)) bad_field = 1'b1;  // no group stride to apply
    if (planar ? bad_pe : bad_ne) bad_field = 1'b1;
  end
  // a planar task: two fp16 sources, the operator and scales, no neural-engine field
  always_comb begin
    bad_pe = !pe_binary || !h8_q[ane_regs_pkg::TdHeader8RBE1Lsb];
    if (infmt != ane_regs_pkg::TdFmtFp16 || s1fmt != ane_regs_pkg::TdFmtFp16 || outfmt != ane_regs_pkg::TdFmtFp16 ||
        s1mem != ane_regs_pkg::TdFmtFp16) bad_pe = 1'b1;
    if (ane_pkg::fp16_is_infnan(pe_scale) || ane_pkg::fp16_is_infnan(pe_bias) ||
        ane_pkg::fp16_is_infnan(pe_s0scale)) bad_pe = 1'b1;
    if (active_ne != '0 || opmode != ane_regs_pkg::TdOpModeConv || kmode || biasmode ||
        nlmode != ane_regs_pkg::TdNonlinearNone || kfmt != ane_regs_pkg::TdFmtNone ||
        pscale != 16'd0 || rshift != 5'd0) bad_pe = 1'b1;
    if (h9_q[ane_regs_pkg::TdHeader9KBE0Lsb] || h9_q[ane_regs_pkg::TdHeader9KBase0Lsb +: ane_regs_pkg::TdHeader9KBase0Width] != 5'd0) bad_pe = 1'b1;
    if (ken_q != 16'd0 || koff_nz_q != 16'd0 || ksz0_q != 16'hffff || sgs_nz_q || dgs_nz_q) bad_pe = 1'b1;
  end
  // a neural-engine task (a convolution or a per-element pass)
  always_comb begin
    bad_ne = 1'b0;
    if (active_ne + 3'd1 != ene) bad_ne = 1'b1;  // every real program: ActiveNE = ENE - 1
    // no second source and no planar operation
    if (h8_q[ane_regs_pkg::TdHeader8RBE1Lsb] || h8_q[ane_regs_pkg::TdHeader8RBase1Lsb +: ane_regs_pkg::TdHeader8RBase1Width] != 5'd0 ||
        s1fmt != ane_regs_pkg::TdFmtNone || src1_nz_q || planar_nz_q) bad_ne = 1'b1;
    if (!pass && !(opmode == ane_regs_pkg::TdOpModeConv && !kmode)) bad_ne = 1'b1;
    if (!pass && kfmt != infmt) bad_ne = 1'b1;            // fp16 x fp16 or int8 x int8
    if (pass && kfmt != ane_regs_pkg::TdFmtNone) bad_ne = 1'b1;              // a pass reads no kernels
    if (biasmode && (pass || int8)) bad_ne = 1'b1;        // the bias is an fp16 in the blocks
    if (int8 && out8 && scale_en) bad_ne = 1'b1;
    if (!int8 && (rshift != '0 || outfmt != ane_regs_pkg::TdFmtFp16)) bad_ne = 1'b1;
    if (ane_pkg::fp16_is_infnan(pscale)) bad_ne = 1'b1;
    if (nlmode != ane_regs_pkg::TdNonlinearNone && nlmode != ane_regs_pkg::TdNonlinearRelu &&
        nlmode != ane_regs_pkg::TdNonlinearTable) bad_ne = 1'b1;
    if ((ken_q & (ken_q + 16'd1)) != 16'd0) bad_ne = 1'b1;  // channels 0 .. E-1
    if ((koff_nz_q & kdis) != 16'd0 || (ksz1_q | ken_q) != 16'hffff) bad_ne = 1'b1;  // the others as real programs
    if (h9_q[ane_regs_pkg::TdHeader9KBE0Lsb] != (ken_q != 16'd0)) bad_ne = 1'b1;
    if (ken_q == 16'd0 && h9_q[ane_regs_pkg::TdHeader9KBase0Lsb +: ane_regs_pkg::TdHeader9KBase0Width] != 5'd0) bad_ne = 1'b1;
    if (table_en && nen == 5'd0) bad_ne = 1'b1;
    if (pass && nen != {4'd0, table_en}) bad_ne = 1'b1;
    if (!pass && nen <= {4'd0, table_en}) bad_ne = 1'b1;
  end

  // Error 2 (shapes) and 3 (the core) before any arithmetic.
  logic bad_shape, bad_core;
  always_comb begin
    bad_shape = win == 15'd0 || hin == 15'd0 || cin == 17'd0 || wout == 15'd0 || hout == 15'd0 ||
                cout == 17'd0 || kw == 5'd0 || kh == 5'd0 || sx == 2'd0 || sy == 2'd0 || ngroups == 13'd0 ||
                px >= kw || py >= kh;
    if ((pass || planar) && (cin != cout || hin != hout || win != wout || kw != 5'd1 || kh != 5'd1 || sx != 2'd1 ||
                             sy != 2'd1)) bad_shape = 1'b1;
    if (planar && ngroups != 13'd1) bad_shape = 1'b1;
    bad_core = planar ? win > 15'd16383 || hin > 15'd16383 || cin > 17'd16383
                      : kw > 5'd7 || kh > 5'd7 || win > 15'd4095 || hin > 15'd4095;
  end

  // ---------------------------------------------------------------- the sequential unit
  // the unit's next operation, per state (issued on entry: u_start with the state's operands)
  logic          go;                 // start the unit this cycle
  logic          go_div;             // ... a divide (else a multiply)
  logic [W-1:0]  go_a, go_b;
  logic          u_start, u_div, u_busy;
  logic [W-1:0]  u_a, u_b;            // operands (multiply: a x b; divide: a / b)
  logic [2*W-1:0] u_acc;              // multiply: product; divide: {remainder, quotient}
  logic [W-1:0]  u_m;                 // multiply: multiplicand shifted; divide: divisor
  logic [W-1:0]  u_n;                 // multiply: multiplier shifted
  logic [$clog2(W+1)-1:0] u_cnt;
  logic [W+1:0]  u_trial;  // the remainder shifted in one bit, less the divisor
  assign u_trial = {1'b0, u_acc[2*W-1:W-1]} - {2'b0, u_m};

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      u_busy <= 1'b0;
    end else if (u_start) begin
      u_busy <= 1'b1;
    end else if (u_busy && (u_div ? u_cnt == '0 : u_n == '0)) begin
      u_busy <= 1'b0;
    end
  end
  always_ff @(posedge clk_i) begin
    if (u_start) begin
      u_m   <= go_div ? u_b : u_a;
      u_n   <= u_b;
      u_acc <= go_div ? {{W{1'b0}}, u_a} : '0;
      u_cnt <= $clog2(W+1)'(W);
    end else if (u_busy) begin
      if (u_div) begin
        if (u_cnt != '0) begin
          u_cnt <= u_cnt - 1'b1;
          // shift {r, q} left; subtract the divisor from r when it fits
          if (!u_trial[W+1]) u_acc <= {u_trial[W-1:0], u_acc[W-2:0], 1'b1};
          else u_acc <= {u_acc[2*W-2:0], 1'b0};
        end
      end else if (u_n != '0) begin
        // only the product's W bits are kept (u_r is read after a divide only), so the
        // add is W bits wide, not 2W
        if (u_n[0]) u_acc[W-1:0] <= u_acc[W-1:0] + u_m;
        u_m <= u_m << 1;   // a product past W bits: the caller checks the operands' range
        u_n <= u_n >> 1;
      end
    end
  end
  logic [W-1:0] u_q, u_r;
  assign u_q = u_acc[W-1:0];        // quotient or product
  assign u_r = u_acc[2*W-1:W];      // remainder

  // ---------------------------------------------------------------- plan and run
  typedef enum logic [4:0] {
    SCap, SCheck, SCg, SPer, SOh, SOw, STileH, SPh, SPw, SLoopMul, SLoopTest, SCpw, SNsl, SNty,
    SNtx, SPasses, SSteps1, SSteps2, SChs, SRange, SShifter, SPrep, SPost, STable, SCore, SKWait,
    SStart, SRun, SDone, SDrain, SPe, SPeRun
  } state_e;
  state_e st_q;
  logic   wait_q;
  logic [TdW-1:0] td_q;  // the TD being captured or run
  always_ff @(posedge clk_i) begin
    if (take) td_q <= wr_td_i;
  end          // the sequential unit's result is being waited for

  logic [W-1:0]  cg_q, per_q, g_q, tile_h_q, tile_w_q, ph_q, pw_q, cpw_q, nsl_q, nty_q,
                 ntx_q, passes_q, steps_q, ppg_q, chs_q;
  logic [6:0]    bpr;
  logic [4:0]    step_i_q;  // write index within a configuration phase
  logic [31:0]   setup_cnt_q;

  localparam int unsigned Pos = NumLanes;
  localparam logic [W-1:0] BankBeats = W'(BankBytes / BeatBytes);

  // bpr = ceil(patch_w bytes / BeatBytes)
  logic [W+1:0] pw_bytes;
  assign pw_bytes = int8 ? {2'b0, pw_q} : {1'b0, pw_q, 1'b0};
  assign bpr = 7'((pw_bytes + (W+2)'(BeatBytes - 1)) >> $clog2(BeatBytes));

  logic elem16;
  assign elem16 = !int8;

  logic [3:0] nk_full;
  logic [W-1:0] nk_last;
  assign nk_full = per_q >= W'(8) ? 4'd8 : 4'(per_q);
  assign nk_last = per_q - ((ppg_q - W'(1)) << 3);

  // output size from the TD: A = (out - 1) s + k, B = in + pad; valid iff A < B + k and B < A + s
  function automatic logic out_ok(input logic [W-1:0] t, input logic [4:0] k, input logic [1:0] s,
                                  input logic [14:0] in, input logic [4:0] pad);
    out_ok = (W+2)'(t) + (W+2)'(k) < (W+2)'(in) + (W+2)'(pad) + (W+2)'(k) &&
             (W+2)'(in) + (W+2)'(pad) < (W+2)'(t) + (W+2)'(k) + (W+2)'(s);
  endfunction

  // the row stride of the shifter's bank image in elements: bpr beats
  logic [W-1:0] row_elems;
  assign row_elems = elem16 ? W'(bpr) << ($clog2(BeatBytes) - 1) : W'(bpr) << $clog2(BeatBytes);
  // The channel stride ph x row_elems is at most BankBytes (the tile's patch fits the bank), so
  // it fits the shifter's CHSTR.CH; its high bits are always 0.
  logic unused_chs_hi;
  assign unused_chs_hi = ^chs_q[W-1:ane_regs_pkg::ShifterChstrChWidth];
`ifndef SYNTHESIS
  initial assert(BankBytes < (1 << ane_regs_pkg::ShifterChstrChWidth));
`endif

  // the configuration writes of each phase
  logic [7:0]  cw_addr;
  logic [31:0] cw_data;
  always_comb begin
    cw_addr = 8'd0;
    cw_data = 32'd0;
    unique case (st_q)
      SShifter: begin
        cw_addr = 8'(ane_regs_pkg::CoreShifterAddr) + 8'(step_i_q);
        unique case (step_i_q[1:0])  // dilation 1, one kernel; column stride 1
          2'(ane_regs_pkg::ShifterGeomAddr):
            cw_data = 32'(sy) << ane_regs_pkg::ShifterGeomSyLsb | 32'(sx) << ane_regs_pkg::ShifterGeomSxLsb |
                      32'd1 << ane_regs_pkg::ShifterGeomDyLsb | 32'd1 << ane_regs_pkg::ShifterGeomDxLsb |
                      32'(elem16) << ane_regs_pkg::ShifterGeomElem16Lsb |
                      32'(tile_w_q[8:0]) << ane_regs_pkg::ShifterGeomTileWLsb |
                      32'(tile_h_q[8:0]) << ane_regs_pkg::ShifterGeomTileHLsb;
          2'(ane_regs_pkg::ShifterStrideAddr):
            cw_data = 32'(row_elems[11:0]) << ane_regs_pkg::ShifterStrideRowLsb |
                      32'd1 << ane_regs_pkg::ShifterStrideColLsb;
          2'(ane_regs_pkg::ShifterChstrAddr):
            cw_data = 32'(chs_q[ane_regs_pkg::ShifterChstrChWidth-1:0]) << ane_regs_pkg::ShifterChstrChLsb;
          default: cw_data = 32'd0;  // PREP
        endcase
      end
      SPost: begin
        cw_addr = 8'(ane_regs_pkg::CorePostprocAddr) + 8'(step_i_q);
        if (step_i_q[0] == 1'(ane_regs_pkg::PostprocCtrlAddr)) begin  // no stochastic rounding
          cw_data = 32'(int8) << ane_regs_pkg::PostprocCtrlIntAccLsb |
                    (int8 ? 32'(rshift) : 32'd0) << ane_regs_pkg::PostprocCtrlShiftLsb |
                    32'(out8) << ane_regs_pkg::PostprocCtrlStoreInt8Lsb |
                    32'd13 << ane_regs_pkg::PostprocCtrlSrWidthLsb |
                    32'(scale_en) << ane_regs_pkg::PostprocCtrlScaleEnLsb |
                    32'(biasmode) << ane_regs_pkg::PostprocCtrlBiasEnLsb |
                    32'(nlmode) << ane_regs_pkg::PostprocCtrlActLsb;
        end else begin
          cw_data = 32'd1 << ane_regs_pkg::PostprocSeedStateLsb;  // SEED
        end
      end
      SCore: begin
        unique case (step_i_q)
          5'd0: begin
            cw_addr = 8'(ane_regs_pkg::CoreKextAddr);
            cw_data = 32'(cg_q[9:0]) << ane_regs_pkg::CoreKextCLsb | 32'(kh[2:0]) << ane_regs_pkg::CoreKextKhLsb |
                      32'(kw[2:0]) << ane_regs_pkg::CoreKextKwLsb;
          end
          5'd1: begin
            cw_addr = 8'(ane_regs_pkg::CoreLayerAddr);
            cw_data = 32'(cg_q[9:0]) << ane_regs_pkg::CoreLayerCgLsb |
                      32'(int8) << ane_regs_pkg::CoreLayerModeLsb |
                      32'(elem16) << ane_regs_pkg::CoreLayerElem16Lsb |
                      32'(scale_en || biasmode) << ane_regs_pkg::CoreLayerParamsLsb |
                      32'(out8) << ane_regs_pkg::CoreLayerOut8Lsb;
          end
          5'd2: begin
            cw_addr = 8'(ane_regs_pkg::CoreTileAddr);
            cw_data = 32'(tile_h_q[8:0]) << ane_regs_pkg::CoreTileTileHLsb |
                      32'(tile_w_q[8:0]) << ane_regs_pkg::CoreTileTileWLsb |
                      32'(cpw_q[9:0]) << ane_regs_pkg::CoreTileNcLsb;
          end
          5'd3: begin
            cw_addr = 8'(ane_regs_pkg::CoreGridAddr);
            cw_data = 32'(nty_q[9:0]) << ane_regs_pkg::CoreGridNtyLsb | 32'(ntx_q[9:0]) << ane_regs_pkg::CoreGridNtxLsb |
                      32'(nsl_q[9:0]) << ane_regs_pkg::CoreGridNslLsb;
          end
          5'd4: begin
            cw_addr = 8'(ane_regs_pkg::CorePassAddr);
            cw_data = 32'(passes_q[9:0]) << ane_regs_pkg::CorePassNpLsb |
                      32'(ppg_q[9:0]) << ane_regs_pkg::CorePassPpgLsb |
                      32'(nk_full) << ane_regs_pkg::CorePassNkFullLsb |
                      32'(nk_last[4:0]) << ane_regs_pkg::CorePassNkLastLsb;
          end
          5'd5: begin
            cw_addr = 8'(ane_regs_pkg::CoreCgoutAddr);
            cw_data = 32'(per_q[9:0]) << ane_regs_pkg::CoreCgoutCgoutLsb;
          end
          5'd6: begin
            cw_addr = 8'(ane_regs_pkg::CoreInAddr);
            cw_data = 32'(hin[11:0]) << ane_regs_pkg::CoreInHLsb | 32'(win[11:0]) << ane_regs_pkg::CoreInWLsb;
          end
          5'd7: begin
            cw_addr = 8'(ane_regs_pkg::CoreOutAddr);
            cw_data = 32'(hout[11:0]) << ane_regs_pkg::CoreOutOhLsb | 32'(wout[11:0]) << ane_regs_pkg::CoreOutOwLsb;
          end
          5'd8: begin
            cw_addr = 8'(ane_regs_pkg::CoreWinAddr);
            cw_data = 32'(sy) << ane_regs_pkg::CoreWinSyLsb | 32'(sx) << ane_regs_pkg::CoreWinSxLsb |
                      32'(py) << ane_regs_pkg::CoreWinPtLsb | 32'(px) << ane_regs_pkg::CoreWinPlLsb;
          end
          5'd9: begin
            cw_addr = 8'(ane_regs_pkg::CorePatchAddr);
            cw_data = 32'(ph_q[9:0]) << ane_regs_pkg::CorePatchPhLsb | 32'(pw_q[9:0]) << ane_regs_pkg::CorePatchPwLsb |
                      32'(bpr[5:0]) << ane_regs_pkg::CorePatchBprLsb;
          end
          5'd10: begin
            cw_addr = 8'(ane_regs_pkg::CoreXbaseAddr);
            cw_data = xbase_q;
          end
          5'd11: begin
            cw_addr = 8'(ane_regs_pkg::CoreXchsAddr);
            cw_data = {splane_q[ane_regs_pkg::TdTileDMASrcPlaneStridePlaneStrideLsb +: ane_regs_pkg::TdTileDMASrcPlaneStridePlaneStrideWidth], 6'd0};
          end
          5'd12: begin
            cw_addr = 8'(ane_regs_pkg::CoreXrsAddr);
            cw_data = {srow_q[ane_regs_pkg::TdTileDMASrcRowStrideStrideLsb +: ane_regs_pkg::TdTileDMASrcRowStrideStrideWidth], 6'd0};
          end
          5'd13: begin
            cw_addr = 8'(ane_regs_pkg::CoreKbaseAddr);
            cw_data = kstage_i;
          end
          5'd14: begin
            cw_addr = 8'(ane_regs_pkg::CoreYbaseAddr);
            cw_data = ybase_q;
          end
          5'd15: begin
            cw_addr = 8'(ane_regs_pkg::CoreYchsAddr);
            cw_data = {dplane_q[ane_regs_pkg::TdTileDMADstPlaneStridePlaneStrideLsb +: ane_regs_pkg::TdTileDMADstPlaneStridePlaneStrideWidth], 6'd0};
          end
          default: begin
            cw_addr = 8'(ane_regs_pkg::CoreYrsAddr);
            cw_data = {drow_q[ane_regs_pkg::TdTileDMADstRowStrideRowStrideLsb +: ane_regs_pkg::TdTileDMADstRowStrideRowStrideWidth], 6'd0};
          end
        endcase
      end
      STable: begin
        cw_addr = 8'(ane_regs_pkg::CorePostprocAddr) + {2'b0, tb_wr_addr_i};
        cw_data = tb_wr_data_i;
      end
      SStart: begin
        cw_addr = 8'(ane_regs_pkg::CoreStartAddr);
        cw_data = 32'd1;
      end
      default: ;
    endcase
  end

  // ---------------------------------------------------------------- a planar task's writes
  // ane_planar's registers in order, then START (PeWrites in all), one a cycle once the engine is
  // idle: the elementwise task y = FC_O(op(FC_A(src0), src1)) of A18.
  localparam int unsigned PeWrites = 22;
  logic        pe_go;
  logic [5:0]  pw_addr;
  logic [31:0] pw_data;
  logic [3:0]  pe_ewop;
  assign pe_go = !pe_busy_i;
  always_comb begin
    unique case (pe_op)  // Planar.Cfg.Op: add, mul, max, min
      ane_regs_pkg::TdPlanarOpAdd: pe_ewop = 4'(ane_pkg::PeEwAdd);
      ane_regs_pkg::TdPlanarOpMul: pe_ewop = 4'(ane_pkg::PeEwMul);
      ane_regs_pkg::TdPlanarOpMax: pe_ewop = 4'(ane_pkg::PeEwMax);
      default: pe_ewop = 4'(ane_pkg::PeEwMin);
    endcase
  end
  always_comb begin
    pw_data = 32'd0;
    unique case (step_i_q)
      5'd0: begin
        pw_addr = 6'(ane_regs_pkg::PlanarModeAddr);
        pw_data = 32'(pe_ewop) << ane_regs_pkg::PlanarModeEwopLsb;  // KIND 0 elementwise, POSTOP pass
      end
      5'd1: begin
        pw_addr = 6'(ane_regs_pkg::PlanarShapeAddr);
        pw_data = 32'(win[13:0]) << ane_regs_pkg::PlanarShapeWLsb | 32'(hin[13:0]) << ane_regs_pkg::PlanarShapeHLsb;
      end
      5'd2: begin
        pw_addr = 6'(ane_regs_pkg::PlanarChanAddr);
        pw_data = 32'(cin[13:0]) << ane_regs_pkg::PlanarChanCLsb;
      end
      5'd3: pw_addr = 6'(ane_regs_pkg::PlanarFmtAddr);  // fp16 everywhere, no broadcast
      5'd4: begin
        pw_addr = 6'(ane_regs_pkg::PlanarFcaAddr);
        pw_data = 32'(pe_s0scale) << ane_regs_pkg::PlanarFcaScaleLsb;  // bias +0
      end
      5'd5: begin
        pw_addr = 6'(ane_regs_pkg::PlanarFcoAddr);
        pw_data = 32'(pe_scale) << ane_regs_pkg::PlanarFcoScaleLsb | 32'(pe_bias) << ane_regs_pkg::PlanarFcoBiasLsb;
      end
      5'd6: pw_addr = 6'(ane_regs_pkg::PlanarFcctlAddr);
      5'd7: pw_addr = 6'(ane_regs_pkg::PlanarPoolAddr);
      5'd8: pw_addr = 6'(ane_regs_pkg::PlanarPooloutAddr);
      5'd9: begin
        pw_addr = 6'(ane_regs_pkg::PlanarS0baseAddr);
        pw_data = xbase_q;
      end
      5'd10: begin
        pw_addr = 6'(ane_regs_pkg::PlanarS0rowAddr);
        pw_data = {srow_q[ane_regs_pkg::TdTileDMASrcRowStrideStrideLsb +: ane_regs_pkg::TdTileDMASrcRowStrideStrideWidth], 6'd0};
      end
      5'd11: begin
        pw_addr = 6'(ane_regs_pkg::PlanarS0planeAddr);
        pw_data = {splane_q[ane_regs_pkg::TdTileDMASrcPlaneStridePlaneStrideLsb +: ane_regs_pkg::TdTileDMASrcPlaneStridePlaneStrideWidth], 6'd0};
      end
      5'd12: begin
        pw_addr = 6'(ane_regs_pkg::PlanarS1baseAddr);
        pw_data = s1base_q;
      end
      5'd13: begin
        pw_addr = 6'(ane_regs_pkg::PlanarS1rowAddr);
        pw_data = {s1row_q[ane_regs_pkg::TdTileDMASrcSrc1RowStrideStrideLsb +: ane_regs_pkg::TdTileDMASrcSrc1RowStrideStrideWidth], 6'd0};
      end
      5'd14: begin
        pw_addr = 6'(ane_regs_pkg::PlanarS1planeAddr);
        pw_data = {s1plane_q[ane_regs_pkg::TdTileDMASrcSrc1PlaneStrideStrideLsb +: ane_regs_pkg::TdTileDMASrcSrc1PlaneStrideStrideWidth], 6'd0};
      end
      5'd15: pw_addr = 6'(ane_regs_pkg::PlanarS2baseAddr);
      5'd16: pw_addr = 6'(ane_regs_pkg::PlanarS2rowAddr);
      5'd17: pw_addr = 6'(ane_regs_pkg::PlanarS2planeAddr);
      5'd18: begin
        pw_addr = 6'(ane_regs_pkg::PlanarDbaseAddr);
        pw_data = ybase_q;
      end
      5'd19: begin
        pw_addr = 6'(ane_regs_pkg::PlanarDrowAddr);
        pw_data = {drow_q[ane_regs_pkg::TdTileDMADstRowStrideRowStrideLsb +: ane_regs_pkg::TdTileDMADstRowStrideRowStrideWidth], 6'd0};
      end
      5'd20: begin
        pw_addr = 6'(ane_regs_pkg::PlanarDplaneAddr);
        pw_data = {dplane_q[ane_regs_pkg::TdTileDMADstPlaneStridePlaneStrideLsb +: ane_regs_pkg::TdTileDMADstPlaneStridePlaneStrideWidth], 6'd0};
      end
      default: begin
        pw_addr = 6'(ane_regs_pkg::PlanarStartAddr);
        pw_data = 32'd1;
      end
    endcase
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) pe_cfg_we_o <= 1'b0;
    else pe_cfg_we_o <= st_q == SPe && pe_go;
  end
  always_ff @(posedge clk_i) begin
    pe_cfg_addr_o  <= pw_addr;
    pe_cfg_wdata_o <= pw_data;
  end

  logic cw_we;
  assign cw_we = st_q == SShifter || st_q == SPost || st_q == SCore || st_q == SStart ||
                 (st_q == STable && tb_wr_valid_i);
  assign tb_wr_ready_o = st_q == STable;

  assign wr_ready_o = st_q == SCap || st_q == SDrain;
  assign busy_o = st_q != SCap && st_q != SDrain;

  logic        u_done;
  assign u_done = wait_q && !u_busy;

  state_e st_d;
  logic   err_d;
  logic [2:0] code_d;
  always_comb begin
    st_d = st_q;
    err_d = 1'b0;
    code_d = 3'd0;
    go = 1'b0;
    go_div = 1'b0;
    go_a = '0;
    go_b = '0;
    unique case (st_q)
      SCap: if (take && wr_last_i) st_d = SCheck;
      SCheck: begin
        if (bad_fixed) begin
          err_d = 1'b1;
          code_d = 3'(ErrFixed);
        end else if (bad_field) begin
          err_d = 1'b1;
          code_d = 3'(ErrField);
        end else if (bad_shape) begin
          err_d = 1'b1;
          code_d = 3'(ErrShape);
        end else if (bad_core) begin
          err_d = 1'b1;
          code_d = 3'(ErrCore);
        end else if (planar) begin
          st_d = SPe;
        end else begin
          st_d = SCg;
          go = 1'b1;
          go_div = 1'b1;
          go_a = W'(cin);
          go_b = pass ? W'(cin) : W'(ngroups);
        end
      end
      SCg: if (u_done) begin
        if (u_r != '0) begin
          err_d = 1'b1;
          code_d = 3'(ErrShape);
        end else begin
          st_d = SPer;
          go = 1'b1;
          go_div = 1'b1;
          go_a = W'(cout);
          go_b = g_q;
        end
      end
      SPer: if (u_done) begin
        if (u_r != '0) begin
          err_d = 1'b1;
          code_d = 3'(ErrShape);
        end else if (cg_q > W'(1023) || u_q > W'(1023) || g_q > W'(1023)) begin
          err_d = 1'b1;
          code_d = 3'(ErrCore);
        end else begin
          st_d = SOh;
          go = 1'b1;
          go_a = W'(hout) - W'(1);
          go_b = W'(sy);
        end
      end
      SOh: if (u_done) begin
        if (!out_ok(u_q, kh, sy, hin, py)) begin
          err_d = 1'b1;
          code_d = 3'(ErrShape);
        end else begin
          st_d = SOw;
          go = 1'b1;
          go_a = W'(wout) - W'(1);
          go_b = W'(sx);
        end
      end
      SOw: if (u_done) begin
        if (!out_ok(u_q, kw, sx, win, px)) begin
          err_d = 1'b1;
          code_d = 3'(ErrShape);
        end else if (hout > 15'd4095 || wout > 15'd4095) begin
          err_d = 1'b1;
          code_d = 3'(ErrCore);
        end else begin
          st_d = STileH;
          go = 1'b1;
          go_div = 1'b1;
          go_a = W'(Pos);
          go_b = W'(wout) < W'(Pos) ? W'(wout) : W'(Pos);
        end
      end
      STileH: if (u_done) begin
        st_d = SPh;
        go = 1'b1;
        go_a = (W'(hout) < u_q ? W'(hout) : u_q) - W'(1);
        go_b = W'(sy);
      end
      SPh: if (u_done) begin
        st_d = SPw;
        go = 1'b1;
        go_a = tile_w_q - W'(1);
        go_b = W'(sx);
      end
      SPw: if (u_done) begin
        st_d = SLoopMul;
      end
      SLoopMul: begin
        st_d = SLoopTest;
        go = 1'b1;
        go_a = ph_q;
        go_b = W'(bpr);
      end
      SLoopTest: if (u_done) begin
        if (u_q <= BankBeats && bpr <= 7'd63) begin
          st_d = SCpw;
          go = 1'b1;
          go_div = 1'b1;
          go_a = BankBeats;
          go_b = u_q;
        end else if (tile_h_q > W'(1) || tile_w_q > W'(1)) begin
          st_d = SLoopMul;
        end else begin
          err_d = 1'b1;
          code_d = 3'(ErrCore);
        end
      end
      // cpw = max(1, min(Cg, q)) is set on this edge; SNsl divides by it
      SCpw: if (u_done) st_d = SNsl;
      SNsl: begin
        st_d = SNty;
        go = 1'b1;
        go_div = 1'b1;
        go_a = cg_q + cpw_q - W'(1);
        go_b = cpw_q;
      end
      SNty: if (u_done) begin
        st_d = SNtx;
        go = 1'b1;
        go_div = 1'b1;
        go_a = W'(hout) + tile_h_q - W'(1);
        go_b = tile_h_q;
      end
      SNtx: if (u_done) begin
        st_d = SPasses;
        go = 1'b1;
        go_div = 1'b1;
        go_a = W'(wout) + tile_w_q - W'(1);
        go_b = tile_w_q;
      end
      SPasses: if (u_done) begin
        st_d = SSteps1;
        go = 1'b1;
        go_a = g_q;
        go_b = ppg_q;
      end
      SSteps1: if (u_done) begin
        st_d = SSteps2;
        go = 1'b1;
        go_a = cg_q;
        go_b = W'(kh);
      end
      SSteps2: if (u_done) begin
        st_d = SChs;
        go = 1'b1;
        go_a = u_q;
        go_b = W'(kw);
      end
      SChs: if (u_done) begin
        st_d = SRange;
        go = 1'b1;
        go_a = ph_q;
        go_b = row_elems;
      end
      SRange: if (u_done) begin
        if (passes_q > W'(1023) || nty_q > W'(1023) || ntx_q > W'(1023) || ph_q > W'(1023) ||
            pw_q > W'(1023) || steps_q > W'(16'hffff) || (elem16 && steps_q > W'(32760))) begin
          // (an fp16 group of 8 kernels over more than 32 760 steps has more than the 65 535
          // beats a pass directory entry counts, docs/core.md)
          err_d = 1'b1;
          code_d = 3'(ErrCore);
        end else begin
          st_d = SShifter;
        end
      end
      SShifter: if (step_i_q == 5'd3) st_d = SPrep;
      SPrep: if (!core_busy_i && !cfg_we_o) st_d = SPost;
      SPost: if (step_i_q == 5'd1) st_d = table_en ? STable : SCore;
      STable: begin
        if (tb_error_i) begin
          err_d = 1'b1;
          code_d = 3'(ErrTable);
        end else if (!tb_busy_i && !tb_wr_valid_i && !tb_start_o) begin
          st_d = SCore;
        end
      end
      SCore: if (step_i_q == 5'd16) st_d = SKWait;
      SKWait: if (!kd_busy_i && !kd_start_o) begin
        if (kd_err_i) begin  // a kernel block's bias is not finite
          err_d = 1'b1;
          code_d = 3'(ErrTable);
        end else begin
          st_d = SStart;
        end
      end
      SStart: st_d = SRun;
      SRun: if (core_done_i) st_d = SDone;
      SPe: if (step_i_q == 5'(PeWrites - 1) && pe_go) st_d = SPeRun;
      SPeRun: if (pe_done_i) st_d = SDone;
      SDone: st_d = SCap;
      SDrain: ;
      default: st_d = SCap;
    endcase
    if (err_d) st_d = SDrain;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q        <= SCap;
      wait_q      <= 1'b0;
      error_o     <= 1'b0;
      err_code_o  <= 3'd0;
      err_td_o    <= '0;
      err_addr_o  <= '0;
      err_header_o <= 1'b0;
      planar_nz_q <= 1'b0;
      src1_nz_q   <= 1'b0;
      sgs_nz_q    <= 1'b0;
      dgs_nz_q    <= 1'b0;
      fix_bad_q   <= '0;
      cfg_we_o    <= 1'b0;
      kd_start_o  <= 1'b0;
      tb_start_o  <= 1'b0;
      task_done_o <= 1'b0;
      step_i_q    <= 5'd0;
      setup_cnt_q <= 32'd0;
      st_setup_o  <= 32'd0;
    end else begin
      st_q        <= st_d;
      cfg_we_o    <= cw_we;
      kd_start_o  <= st_q == SRange && st_d == SShifter;
      tb_start_o  <= st_q == SRange && st_d == SShifter && table_en;
      // an error ends the TD too: the fetch goes on (the later TDs are dropped, SDrain)
      task_done_o <= st_q == SDone || err_d || (st_q == SDrain && take && wr_last_i);
      if (go) wait_q <= 1'b1;
      else if (u_done) wait_q <= 1'b0;
      if (take && planar_word && wr_data_i != 32'd0) planar_nz_q <= 1'b1;
      if (take && src1_word && wr_data_i != 32'd0) src1_nz_q <= 1'b1;
      if (take && sgs_word && wr_data_i != 32'd0) sgs_nz_q <= 1'b1;
      if (take && dgs_word && wr_data_i != 32'd0) dgs_nz_q <= 1'b1;
      for (int k = 0; k < 3; k++) begin
        if (take && !rok[k]) begin
          fix_bad_q[k] <= 1'b1;
          if (!fix_bad_q[k]) fix_at_q[25 * k +: 25] <= {wr_header_i, wr_addr_i};
        end
      end
      // the flags are the TD's: cleared once it is checked (no word is taken in SCheck) and
      // by a new walk
      if (st_q == SCheck || clear_i) begin
        planar_nz_q <= 1'b0;
        src1_nz_q <= 1'b0;
        sgs_nz_q <= 1'b0;
        dgs_nz_q <= 1'b0;
        fix_bad_q <= '0;
      end
      if (st_q != st_d) step_i_q <= 5'd0;
      else if (st_q == SShifter || st_q == SPost || st_q == SCore || (st_q == SPe && pe_go)) step_i_q <= step_i_q + 5'd1;
      if (st_q == SCap) setup_cnt_q <= 32'd0;
      else if (st_q != SRun && st_q != SDone && st_q != SPeRun) setup_cnt_q <= setup_cnt_q + 32'd1;
      if (st_q == SStart || (st_q == SPe && st_d == SPeRun)) st_setup_o <= setup_cnt_q;
      if (err_d) begin
        error_o    <= 1'b1;
        err_code_o <= code_d;
        err_td_o   <= td_q;
        {err_header_o, err_addr_o} <= fix_at_q[25 * kind +: 25];
      end
      if (clear_i) begin
        error_o <= 1'b0;
        err_code_o <= 3'd0;
        if (st_q == SDrain) st_q <= SCap;
      end
    end
  end

  assign u_start = go;
  always_ff @(posedge clk_i) begin
    if (go) u_div <= go_div;
  end
  assign u_a = go_a;
  assign u_b = go_b;

  // results of the unit, taken as each state ends
  always_ff @(posedge clk_i) begin
    unique case (st_q)
      SCheck: g_q <= pass ? W'(cin) : W'(ngroups);
      SCg: if (u_done) cg_q <= u_q;
      SPer: if (u_done) begin
        per_q <= u_q;
        ppg_q <= u_q > W'(8) ? (u_q + W'(7)) >> 3 : W'(1);
      end
      SOw: if (u_done) tile_w_q <= W'(wout) < W'(Pos) ? W'(wout) : W'(Pos);
      STileH: if (u_done) tile_h_q <= W'(hout) < u_q ? W'(hout) : u_q;
      SPh: if (u_done) ph_q <= u_q + W'(kh);
      SPw: if (u_done) pw_q <= u_q + W'(kw);
      SLoopTest: if (u_done) begin
        if (!(u_q <= BankBeats && bpr <= 7'd63)) begin
          if (tile_h_q > W'(1)) begin
            tile_h_q <= tile_h_q - W'(1);
            ph_q <= ph_q - W'(sy);
          end else if (tile_w_q > W'(1)) begin
            tile_w_q <= tile_w_q - W'(1);
            pw_q <= pw_q - W'(sx);
          end
        end
      end
      SCpw: if (u_done) cpw_q <= u_q == '0 ? W'(1) : (u_q < cg_q ? u_q : cg_q);
      SNty: if (u_done) nsl_q <= u_q;
      SNtx: if (u_done) nty_q <= u_q;
      SPasses: if (u_done) ntx_q <= u_q;
      SSteps1: if (u_done) passes_q <= u_q;
      SChs: if (u_done) steps_q <= u_q;
      SRange: if (u_done) chs_q <= u_q;
      default: ;
    endcase
  end

  always_ff @(posedge clk_i) begin
    cfg_addr_o  <= cw_addr;
    cfg_wdata_o <= cw_data;
  end

  // kernel DMA and table parameters (stable from kd_start_o / tb_start_o to the end of the TD)
  assign kd_chan_base_o = kbase_q;
  assign kd_nchan_o   = pass ? 5'd0 : nen - {4'd0, table_en};
  assign kd_steps_o   = steps_q[15:0] + 16'(biasmode);  // the bias leads each block
  assign kd_fp16_o    = elem16;
  assign kd_per_o     = per_q[9:0];
  assign kd_nk_full_o = nk_full;
  assign kd_ppg_o     = ppg_q[9:0];
  assign kd_nk_last_o = nk_last[3:0];
  assign kd_passes_o  = passes_q[10:0];
  assign kd_params_o  = scale_en || biasmode;
  assign kd_scale_o   = pscale;
  assign kd_bias_in_o = biasmode;
  assign tb_base_o    = tbase_q;

  logic unused;
  // (only the fields above are read from the captured words; synthesis drops the other flops)
  assign unused = ^{indim_q, chcfg_q, cin_q, cout_q, outdim_q, conv_q, grp_q, sfmt_q, dfmt_q, h0_q, h1_q, ccfg_q,
                    s1row_q, s1plane_q, s1fmt_q, pcfg_q, ps0s_q,
                    pscale_q, kcfg_q, mac_q, tile_w_q[W-1:9], tile_h_q[W-1:9], cpw_q[W-1:10], nsl_q[W-1:10], nty_q[W-1:10],
                    ntx_q[W-1:10], passes_q[W-1:11], steps_q[W-1:16], ppg_q[W-1:10], per_q[W-1:10], cg_q[W-1:10],
                    nk_last[W-1:4], hin[14:12], win[14:12], hout[14:12],
                    wout[14:12], kw[4:3], kh[4:3], row_elems[W-1:12], ph_q[W-1:10], pw_q[W-1:10], bpr[6],
                    u_acc[2*W-1], srow_q, splane_q, drow_q, dplane_q, sdma_q, ddma_q,
                    h9_q, h8_q, ken_q};

endmodule
