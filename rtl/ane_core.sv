// ane_core: one neural-engine core (ARCHITECTURE: neural-engine core; docs/core.md). A register
// configuration describes a layer (a convolution, or a matrix multiply as a 1x1 convolution);
// a write to START runs it:
//
//   ane_core_kread --kin--> ane_kernel_extract --ops--> ane_core_route --requests--+
//        ^ kernel memory            | parameter records                            v
//        |                          |          input memory --> ane_core_load --> ane_shifter
//        |                          v                                              | lane vectors
//        |                    ane_core_out <-- results -- ane_mac_array <----------+ + coefficients
//        |                    (post-processor, writer) --> output memory
//
// Rasterizer order: for pass (up to 8 slots: 8 kernels, or 16 in the fp16 two-kernel mode, of
// one conv group): for tile row: for tile column: for channel slice (one work unit). The kernel
// group of a pass is streamed once per tile; the steps of a tile run in the N-2 order, the
// kernels innermost (one data vector serves every slot in consecutive cycles).
//
// Configuration (cfg_addr_i, 32-bit registers, written while busy_o is low):
//   0x00 LAYER  [9:0] cg (input channels per conv group), [12:10] MAC mode (ane_pkg::mac_mode_e),
//               [13] two-kernel, [14] 16-bit input elements, [15] parameter records, [16] int8 out
//   0x01 TILE   [8:0] tile_h, [17:9] tile_w, [27:18] channels per work unit
//   0x02 GRID   [9:0] tile rows, [19:10] tile columns, [29:20] channel slices per pass
//   0x03 PASS   [9:0] passes, [19:10] passes per conv group, [24:20] kernels per pass,
//               [29:25] kernels of a conv group's last pass
//   0x04 CGOUT  [9:0] output channels per conv group
//   0x05 IN     [11:0] H, [23:12] W          0x06 OUT  [11:0] OH, [23:12] OW
//   0x07 WIN    [2:0] sy, [5:3] sx, [10:6] padding top, [15:11] padding left
//   0x08 PATCH  [9:0] patch rows, [19:10] patch columns (of a whole tile), [25:20] beats per row
//   0x09 XBASE  0x0A XCHS  0x0B XRS   input: byte address, bytes per channel plane, per row
//   0x0C KBASE  byte address of the pass directory (ane_core_kread)
//   0x0D YBASE  0x0E YCHS  0x0F YRS   output: the same
//   0x10 START  any write: run the layer (done_o pulses when its last output is written)
//   0x40 + a    ane_postproc register a          0x80 + a  ane_shifter register a (0..3)
//   0x84        ane_kernel_extract configuration ([9:0] C, [12:10] KH, [15:13] KW)
//
// Counters (valid after done_o, cleared by START): cycles of the layer; cycles the MAC array took
// an operation; cycles it had one but the results side held it (stall_res); cycles it had none
// while the shifter waited for a work unit (wait_load) or while the router had no operation
// (wait_kern: the kernel stream, group headers, pipeline fill); the cycle of the last operation.
`default_nettype none

module ane_core #(
  parameter logic        Gen       = ane_pkg::GenM1,
  parameter int unsigned NumLanes  = 256,
  parameter int unsigned BankBytes = 512,
  parameter int unsigned BeatBytes = 8,
  parameter int unsigned OutBytes  = 32,
  parameter int unsigned Credits   = 16
) (
  input  wire logic                   clk_i,
  input  wire logic                   rst_ni,
  // configuration
  input  wire logic                   cfg_we_i,
  input  wire logic [7:0]             cfg_addr_i,
  input  wire logic [31:0]            cfg_wdata_i,
  output      logic                   busy_o,
  output      logic                   done_o,
  // input memory (BeatBytes at any byte address; answers in order, no back-pressure)
  output      logic                   xr_valid_o,
  input  wire logic                   xr_ready_i,
  output      logic [31:0]            xr_addr_o,
  input  wire logic                   xs_valid_i,
  input  wire logic [BeatBytes*8-1:0] xs_data_i,
  // kernel memory (64-bit beats at 8-byte aligned addresses; the same protocol)
  output      logic                   kr_valid_o,
  input  wire logic                   kr_ready_i,
  output      logic [31:0]            kr_addr_o,
  input  wire logic                   ks_valid_i,
  input  wire logic [63:0]            ks_data_i,
  // output memory writes (OutBytes at any byte address, byte strobes)
  output      logic                   yw_valid_o,
  input  wire logic                   yw_ready_i,
  output      logic [31:0]            yw_addr_o,
  output      logic [OutBytes*8-1:0]  yw_data_o,
  output      logic [OutBytes-1:0]    yw_strb_o,
  // counters
  output      logic [31:0]            st_cycles_o,
  output      logic [31:0]            st_mac_o,
  output      logic [31:0]            st_stall_res_o,
  output      logic [31:0]            st_wait_load_o,
  output      logic [31:0]            st_wait_kern_o,
  output      logic [31:0]            st_last_mac_o
);

  // ---------------------------------------------------------------- registers
  logic [31:0] layer_q, tile_q, grid_q, pass_q, cgout_q, in_q, out_q, win_q, patch_q;
  logic [31:0] xbase_q, xchs_q, xrs_q, kbase_q, ybase_q, ychs_q, yrs_q;
  logic        start, run_q;
  assign start = cfg_we_i && cfg_addr_i == 8'h10;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      {layer_q, tile_q, grid_q, pass_q, cgout_q, in_q, out_q, win_q, patch_q} <= '0;
      {xbase_q, xchs_q, xrs_q, kbase_q, ybase_q, ychs_q, yrs_q} <= '0;
    end else if (cfg_we_i) begin
      unique case (cfg_addr_i)
        8'h00: layer_q <= cfg_wdata_i;
        8'h01: tile_q  <= cfg_wdata_i;
        8'h02: grid_q  <= cfg_wdata_i;
        8'h03: pass_q  <= cfg_wdata_i;
        8'h04: cgout_q <= cfg_wdata_i;
        8'h05: in_q    <= cfg_wdata_i;
        8'h06: out_q   <= cfg_wdata_i;
        8'h07: win_q   <= cfg_wdata_i;
        8'h08: patch_q <= cfg_wdata_i;
        8'h09: xbase_q <= cfg_wdata_i;
        8'h0A: xchs_q  <= cfg_wdata_i;
        8'h0B: xrs_q   <= cfg_wdata_i;
        8'h0C: kbase_q <= cfg_wdata_i;
        8'h0D: ybase_q <= cfg_wdata_i;
        8'h0E: ychs_q  <= cfg_wdata_i;
        8'h0F: yrs_q   <= cfg_wdata_i;
        default: ;
      endcase
    end
  end

  logic [9:0]  cg, nc, nty, ntx, nsl, np, ppg, cgout;
  logic [2:0]  mode_bits;
  logic        two_kernel, elem16, params, out8;
  logic [8:0]  tile_h, tile_w;
  logic [4:0]  nk_full, nk_last;
  assign cg         = layer_q[9:0];
  assign mode_bits  = layer_q[12:10];
  assign two_kernel = layer_q[13];
  assign elem16     = layer_q[14];
  assign params     = layer_q[15];
  assign out8       = layer_q[16];
  assign tile_h     = tile_q[8:0];
  assign tile_w     = tile_q[17:9];
  assign nc         = tile_q[27:18];
  assign nty        = grid_q[9:0];
  assign ntx        = grid_q[19:10];
  assign nsl        = grid_q[29:20];
  assign np         = pass_q[9:0];
  assign ppg        = pass_q[19:10];
  assign nk_full    = pass_q[24:20];
  assign nk_last    = pass_q[29:25];
  assign cgout      = cgout_q[9:0];

  // ---------------------------------------------------------------- kernel side
  logic        kin_valid, kin_ready;
  logic [63:0] kin_data;
  logic        kr_busy;
  logic [19:0] ntiles;
  assign ntiles = 20'(nty) * 20'(ntx);

  ane_core_kread #(.Credits(Credits)) u_kread (
    .clk_i(clk_i), .rst_ni(rst_ni), .start_i(start), .busy_o(kr_busy),
    .np_i(np), .ntiles_i(ntiles), .k_base_i(kbase_q),
    .rd_valid_o(kr_valid_o), .rd_ready_i(kr_ready_i), .rd_addr_o(kr_addr_o),
    .rs_valid_i(ks_valid_i), .rs_data_i(ks_data_i),
    .kin_valid_o(kin_valid), .kin_ready_i(kin_ready), .kin_data_o(kin_data)
  );

  logic        ke_busy, prm_valid, prm_ready, op_valid, op_ready;
  logic [3:0]  prm_kernel;
  logic [15:0] prm_scale, op_a, op_b;
  logic [31:0] prm_bias;
  logic [9:0]  op_c;
  logic [2:0]  op_ky, op_kx, op_slot;
  logic        op_first, op_last, op_end;
  ane_kernel_extract u_extract (
    .clk_i(clk_i), .rst_ni(rst_ni),
    .cfg_we_i(cfg_we_i && cfg_addr_i == 8'h84), .cfg_wdata_i(cfg_wdata_i[15:0]), .busy_o(ke_busy),
    .kin_valid_i(kin_valid), .kin_ready_o(kin_ready), .kin_data_i(kin_data),
    .pp_valid_o(prm_valid), .pp_ready_i(prm_ready), .pp_kernel_o(prm_kernel),
    .pp_scale_o(prm_scale), .pp_bias_o(prm_bias),
    .op_valid_o(op_valid), .op_ready_i(op_ready), .op_coef_a_o(op_a), .op_coef_b_o(op_b),
    .op_c_o(op_c), .op_ky_o(op_ky), .op_kx_o(op_kx), .op_slot_o(op_slot),
    .op_first_o(op_first), .op_last_o(op_last), .op_end_o(op_end)
  );

  logic        rq_valid, rq_ready, rq_release, rq_nodata, route_idle;
  logic [9:0]  rq_c;
  logic [2:0]  rq_ky, rq_kx;
  logic [36:0] rq_tag;
  ane_core_route u_route (
    .clk_i(clk_i), .rst_ni(rst_ni), .start_i(start), .nc_i(nc), .nsl_i(nsl),
    .op_valid_i(op_valid), .op_ready_o(op_ready), .op_coef_a_i(op_a), .op_coef_b_i(op_b),
    .op_c_i(op_c), .op_ky_i(op_ky), .op_kx_i(op_kx), .op_slot_i(op_slot),
    .op_first_i(op_first), .op_last_i(op_last), .op_end_i(op_end),
    .rq_valid_o(rq_valid), .rq_ready_i(rq_ready), .rq_c_o(rq_c), .rq_ky_o(rq_ky), .rq_kx_o(rq_kx),
    .rq_release_o(rq_release), .rq_nodata_o(rq_nodata), .rq_tag_o(rq_tag), .idle_o(route_idle)
  );

  // ---------------------------------------------------------------- data side
  logic                   ld_valid, ld_ready, ld_last, ld_busy;
  logic [BeatBytes*8-1:0] ld_data;
  logic [61:0]            ld_desc;
  ane_core_load #(.BeatBytes(BeatBytes), .Credits(Credits)) u_load (
    .clk_i(clk_i), .rst_ni(rst_ni), .start_i(start), .busy_o(ld_busy),
    .cg_i(cg), .nc_i(nc), .nsl_i(nsl), .np_i(np), .ppg_i(ppg), .nty_i(nty), .ntx_i(ntx),
    .tile_h_i(tile_h), .tile_w_i(tile_w), .sy_i(win_q[2:0]), .sx_i(win_q[5:3]),
    .pt_i(win_q[10:6]), .pl_i(win_q[15:11]), .h_i(in_q[11:0]), .w_i(in_q[23:12]),
    .oh_i(out_q[11:0]), .ow_i(out_q[23:12]), .ph_i(patch_q[9:0]), .pw_i(patch_q[19:10]),
    .bpr_i(patch_q[25:20]), .elem16_i(elem16),
    .x_base_i(xbase_q), .x_chs_i(xchs_q), .x_rs_i(xrs_q),
    .rd_valid_o(xr_valid_o), .rd_ready_i(xr_ready_i), .rd_addr_o(xr_addr_o),
    .rs_valid_i(xs_valid_i), .rs_data_i(xs_data_i),
    .ld_valid_o(ld_valid), .ld_ready_i(ld_ready), .ld_data_o(ld_data), .ld_last_o(ld_last),
    .ld_desc_o(ld_desc)
  );

  logic                   sh_busy, vec_valid, vec_ready;
  logic [NumLanes*16-1:0] vec_data;
  logic [NumLanes-1:0]    vec_mask;
  logic [36:0]            vec_tag;
  ane_shifter #(.NumLanes(NumLanes), .BankBytes(BankBytes), .BeatBytes(BeatBytes), .TagBits(37)) u_shifter (
    .clk_i(clk_i), .rst_ni(rst_ni),
    .cfg_we_i(cfg_we_i && cfg_addr_i[7:2] == 6'b100000), .cfg_addr_i(cfg_addr_i[1:0]),
    .cfg_wdata_i(cfg_wdata_i), .busy_o(sh_busy),
    .ld_valid_i(ld_valid), .ld_ready_o(ld_ready), .ld_data_i(ld_data), .ld_last_i(ld_last),
    .ld_desc_i(ld_desc),
    .rq_valid_i(rq_valid), .rq_ready_o(rq_ready), .rq_c_i(rq_c), .rq_ky_i(rq_ky), .rq_kx_i(rq_kx),
    .rq_release_i(rq_release), .rq_nodata_i(rq_nodata), .rq_tag_i(rq_tag),
    .out_valid_o(vec_valid), .out_ready_i(vec_ready), .out_data_o(vec_data),
    .out_mask_o(vec_mask), .out_tag_o(vec_tag)
  );

  // ---------------------------------------------------------------- MAC array
  ane_pkg::mac_mode_e mode;
  always_comb begin
    unique case (mode_bits)
      3'd1:    mode = ane_pkg::ModeInt8;
      3'd2:    mode = ane_pkg::ModeI8xF16;
      3'd3:    mode = ane_pkg::ModeF16xI8;
      3'd4:    mode = ane_pkg::ModeInt4;
      3'd5:    mode = ane_pkg::ModeCmpMax;
      3'd6:    mode = ane_pkg::ModeCmpMin;
      default: mode = ane_pkg::ModeFp16;
    endcase
  end
  logic                   res_valid, res_ready;
  logic [2:0]             res_slot;
  logic [NumLanes*32-1:0] res_acc, rd_acc;
  logic [NumLanes*16-1:0] res_fp16, rd_fp16;   // the post-processor rounds (res_acc)
  logic [NumLanes-1:0]    res_sat, rd_sat;
  logic                   rd_valid;            // the read port is not used by a layer
  // no read port, no fp16 result port: the post-processor rounds the accumulators
  ane_mac_array #(.Gen(Gen), .NumLanes(NumLanes), .ReadPort(1'b0), .Fp16Port(1'b0)) u_array (
    .clk_i(clk_i), .rst_ni(rst_ni),
    .in_valid_i(vec_valid), .in_ready_o(vec_ready), .in_cmd_i(ane_pkg::CmdMac),
    .in_mode_i(mode), .in_slot_i(vec_tag[4:2]),
    .in_first_i(vec_tag[1]), .in_last_i(vec_tag[0]), .in_two_kernel_i(two_kernel),
    .in_data_i(vec_data), .in_aux_i('0), .in_kernel_a_i(vec_tag[36:21]), .in_kernel_b_i(vec_tag[20:5]),
    .out_valid_o(res_valid), .out_ready_i(res_ready), .out_slot_o(res_slot), .out_acc_o(res_acc),
    .out_fp16_o(res_fp16), .out_sat_o(res_sat),
    .rd_en_i(1'b0), .rd_slot_i(3'd0), .rd_valid_o(rd_valid), .rd_acc_o(rd_acc), .rd_fp16_o(rd_fp16),
    .rd_sat_o(rd_sat)
  );

  // ---------------------------------------------------------------- results
  logic out_busy, out_done, pp_busy;
  ane_core_out #(.Gen(Gen), .NumLanes(NumLanes), .OutBytes(OutBytes)) u_out (
    .clk_i(clk_i), .rst_ni(rst_ni), .start_i(start), .busy_o(out_busy), .done_o(out_done),
    .two_kernel_i(two_kernel), .params_i(params), .out8_i(out8), .np_i(np), .ppg_i(ppg),
    .nk_full_i(nk_full), .nk_last_i(nk_last), .cgout_i(cgout), .nty_i(nty), .ntx_i(ntx),
    .tile_h_i(tile_h), .tile_w_i(tile_w), .oh_i(out_q[11:0]), .ow_i(out_q[23:12]),
    .y_base_i(ybase_q), .y_chs_i(ychs_q), .y_rs_i(yrs_q),
    .pp_cfg_we_i(cfg_we_i && cfg_addr_i[7:6] == 2'b01), .pp_cfg_addr_i(cfg_addr_i[5:0]),
    .pp_cfg_wdata_i(cfg_wdata_i), .pp_busy_o(pp_busy),
    .res_valid_i(res_valid), .res_ready_o(res_ready), .res_acc_i(res_acc),
    .prm_valid_i(prm_valid), .prm_ready_o(prm_ready), .prm_scale_i(prm_scale), .prm_bias_i(prm_bias),
    .wr_valid_o(yw_valid_o), .wr_ready_i(yw_ready_i), .wr_addr_o(yw_addr_o), .wr_data_o(yw_data_o),
    .wr_strb_o(yw_strb_o)
  );

  // ---------------------------------------------------------------- status and counters
  assign done_o = out_done;
  assign busy_o = run_q || kr_busy || ke_busy || ld_busy || sh_busy || pp_busy || out_busy;

  logic [31:0] cyc_q, mac_q, sres_q, wload_q, wkern_q, lmac_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      run_q <= 1'b0;
      {cyc_q, mac_q, sres_q, wload_q, wkern_q, lmac_q} <= '0;
    end else if (start) begin
      run_q <= 1'b1;
      {cyc_q, mac_q, sres_q, wload_q, wkern_q, lmac_q} <= '0;
    end else if (run_q) begin
      if (out_done) run_q <= 1'b0;
      cyc_q <= cyc_q + 32'd1;
      if (vec_valid && vec_ready) begin
        mac_q  <= mac_q + 32'd1;
        lmac_q <= cyc_q + 32'd1;
      end
      if (vec_valid && !vec_ready) sres_q <= sres_q + 32'd1;
      if (!vec_valid && rq_valid && !rq_ready) wload_q <= wload_q + 32'd1;
      if (!vec_valid && !rq_valid) wkern_q <= wkern_q + 32'd1;
    end
  end
  assign st_cycles_o    = cyc_q;
  assign st_mac_o       = mac_q;
  assign st_stall_res_o = sres_q;
  assign st_wait_load_o = wload_q;
  assign st_wait_kern_o = wkern_q;
  assign st_last_mac_o  = lmac_q;

`ifndef SYNTHESIS
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni) begin
      if (start) assert (!busy_o);
      // the work units' channel slices cover the conv group
      if (start) assert (nc != '0 && nsl != '0 && np != '0 && ppg != '0 && nty != '0 && ntx != '0);
    end
  end
`endif

  logic unused;
  assign unused = ^{vec_mask, res_slot, res_fp16, res_sat, rd_valid, rd_acc, rd_fp16, rd_sat, route_idle, layer_q[31:17], tile_q[31:28], grid_q[31:30],
                    pass_q[31:30], cgout_q[31:10], in_q[31:24], out_q[31:24], win_q[31:16],
                    patch_q[31:26], prm_kernel};

endmodule

`default_nettype wire
