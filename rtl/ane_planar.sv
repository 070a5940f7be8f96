// SPDX-License-Identifier: Apache-2.0
// ane_planar: the planar engine (NUMERICS N-4, N-1; docs/planar.md "The engine"). It runs one
// task from its configuration registers (ane_regs_pkg::planar_cfg_t, rtl/regs/ane_regs.yaml):
// it walks the task's [C][H][W] tensor, reads up to three sources and writes the result through
// its memory ports, and sequences its own blocks; nothing outside it plans the beats.
//
// Every task reads its sources as beats of NumLanes elements of a row and passes them through
// the elementwise path:
//   sources s0, s1, s2 (ane_planar_rd: int8 -> fp16, broadcast along W; a stride of 0
//   broadcasts along H or C)
//   s0 -> FC_A (ane_pe_fc: scale, bias, unary)  --+
//   s1, s2 --------------- (side FIFO) ------------+--> EW (ane_pe_ew: the operator on a, b, c)
//     --> POST (ane_pe_post: sqrt, recip, rsqrt or pass)
// The sources an operator reads follow from its arity (1: s0; 2: s0, s1; 3: all). Then, by
// MODE.KIND:
//   0 elementwise   POST --> FC_O --> the writer: one result beat per source beat.
//   1 tree          POST --> the patch assembler (ane_planar_patch: the list's elements into
//                   patches of 64) --> the reduction tree (ane_pe_reduce) --> FC_O --> the
//                   writer: one fp16 value per list (AXIS 0: a row, 1: a plane).
//   2 line buffer   POST --> the line buffer (ane_pe_linebuf, its patches through the same tree)
//                   --> the packer (ane_planar_pack) --> FC_O --> the writer: one value per
//                   column of the lines (AXIS 0: the rows of a plane, reduced over the columns;
//                   1: the channels, reduced across them), in strips of LineW columns.
//   3 pooling       POST --> ane_planar_pool (transpose, ane_pe_pool, transpose) --> FC_O -->
//                   the writer: NumLanes channels at a time, the output at most PoolW wide.
//   FC_O: ane_pe_fc (scale, bias, unary, the width-slice gain, the int8 store).
//   FCCTL.A_BYPASS / O_BYPASS take FC_A / FC_O out of the path (values pass unchanged).
//
// The walker (ane_planar_walk): four nested loops, one beat a cycle while every source's request
// queue, the descriptor queue and (line buffer) the job queue have room. Each source and the
// result keep a pointer per level and add the level's stride; nothing multiplies. The loops:
//   kinds 0, 1     (c, y, x-beat)
//   kind 2         (strip, c, y, x-beat) over columns; (strip, y, c, x-beat) across channels
//   kind 3         (channel group, y, x-chunk, channel of the group); with POOL.FLAT (dense
//                  planes) (channel group, -, chunk of the plane's POOLN.N positions, channel);
//                  with MODE.AXIS the same reads, no pooling: the result written channels last
//
// Cycles: after START, one beat per cycle when the memory keeps up; an elementwise task of B
// beats ends about B + the latency of a read + 35 (the units: FC_A 9, EW 6, POST 11, FC_O 9)
// cycles after START; the tree adds 22, the line buffer its blocks, the pooling unit 27 and two
// transposes. busy_o is high from START to the last write; done_o pulses after it.
`default_nettype none

module ane_planar #(
  parameter int unsigned NumLanes = 16,
  parameter int unsigned RdDepth  = 16,   // a reader's answers in flight or held
  parameter int unsigned DstDepth = 64,   // beats between the walker and the writer
  parameter int unsigned LineW    = 64,   // the line buffer's strip: a multiple of NumLanes
  parameter int unsigned PoolW    = 64,   // the pooling unit's widest output row
  localparam int unsigned NW      = $clog2(NumLanes + 1),
  localparam int unsigned LB      = NumLanes * 16,
  localparam int unsigned LL      = $clog2(NumLanes),
  localparam int unsigned LWL     = $clog2(LineW),
  localparam int unsigned QW      = $clog2(LineW + 1)    // a count of elements or results
) (
  input  wire logic          clk_i,
  input  wire logic          rst_ni,
  // configuration
  input  wire logic          cfg_we_i,
  input  wire logic [5:0]    cfg_addr_i,
  input  wire logic [31:0]   cfg_wdata_i,
  output      logic          busy_o,
  output      logic          done_o,
  // source read ports
  output      logic          s0_rd_valid_o,
  input  wire logic          s0_rd_ready_i,
  output      logic [31:0]   s0_rd_addr_o,
  input  wire logic          s0_rs_valid_i,
  input  wire logic [LB-1:0] s0_rs_data_i,
  output      logic          s1_rd_valid_o,
  input  wire logic          s1_rd_ready_i,
  output      logic [31:0]   s1_rd_addr_o,
  input  wire logic          s1_rs_valid_i,
  input  wire logic [LB-1:0] s1_rs_data_i,
  output      logic          s2_rd_valid_o,
  input  wire logic          s2_rd_ready_i,
  output      logic [31:0]   s2_rd_addr_o,
  input  wire logic          s2_rs_valid_i,
  input  wire logic [LB-1:0] s2_rs_data_i,
  // result write port
  output      logic          wr_valid_o,
  input  wire logic          wr_ready_i,
  output      logic [31:0]   wr_addr_o,
  output      logic [LB-1:0] wr_data_o,
  output      logic [NumLanes*2-1:0] wr_strb_o,
  // counters of the last task
  output      logic [31:0]   st_cycles_o,   // START to the last write
  output      logic [31:0]   st_beats_o     // beats written
);

  // ---------------------------------------------------------------- configuration
  ane_regs_pkg::planar_cfg_t cfg_q;
  logic start;
  assign start = cfg_we_i && cfg_addr_i == 6'(ane_regs_pkg::PlanarStartAddr) && !busy_o;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cfg_q <= '0;
    end else if (cfg_we_i && !busy_o) begin
      unique case (cfg_addr_i)
        6'(ane_regs_pkg::PlanarModeAddr): cfg_q.mode <= cfg_wdata_i[ane_regs_pkg::PlanarModeBits-1:0];
        6'(ane_regs_pkg::PlanarShapeAddr): cfg_q.shape <= cfg_wdata_i[ane_regs_pkg::PlanarShapeBits-1:0];
        6'(ane_regs_pkg::PlanarChanAddr): cfg_q.chan <= cfg_wdata_i[ane_regs_pkg::PlanarChanBits-1:0];
        6'(ane_regs_pkg::PlanarFmtAddr): cfg_q.fmt <= cfg_wdata_i[ane_regs_pkg::PlanarFmtBits-1:0];
        6'(ane_regs_pkg::PlanarFcaAddr): cfg_q.fca <= cfg_wdata_i[ane_regs_pkg::PlanarFcaBits-1:0];
        6'(ane_regs_pkg::PlanarFcoAddr): cfg_q.fco <= cfg_wdata_i[ane_regs_pkg::PlanarFcoBits-1:0];
        6'(ane_regs_pkg::PlanarFcctlAddr): cfg_q.fcctl <= cfg_wdata_i[ane_regs_pkg::PlanarFcctlBits-1:0];
        6'(ane_regs_pkg::PlanarPoolAddr): cfg_q.pool <= cfg_wdata_i[ane_regs_pkg::PlanarPoolBits-1:0];
        6'(ane_regs_pkg::PlanarPooloutAddr): cfg_q.poolout <= cfg_wdata_i[ane_regs_pkg::PlanarPooloutBits-1:0];
        6'(ane_regs_pkg::PlanarPoolnAddr): cfg_q.pooln <= cfg_wdata_i[ane_regs_pkg::PlanarPoolnBits-1:0];
        6'(ane_regs_pkg::PlanarS0baseAddr): cfg_q.s0base <= cfg_wdata_i[ane_regs_pkg::PlanarS0baseBits-1:0];
        6'(ane_regs_pkg::PlanarS0rowAddr): cfg_q.s0row <= cfg_wdata_i[ane_regs_pkg::PlanarS0rowBits-1:0];
        6'(ane_regs_pkg::PlanarS0planeAddr): cfg_q.s0plane <= cfg_wdata_i[ane_regs_pkg::PlanarS0planeBits-1:0];
        6'(ane_regs_pkg::PlanarS1baseAddr): cfg_q.s1base <= cfg_wdata_i[ane_regs_pkg::PlanarS1baseBits-1:0];
        6'(ane_regs_pkg::PlanarS1rowAddr): cfg_q.s1row <= cfg_wdata_i[ane_regs_pkg::PlanarS1rowBits-1:0];
        6'(ane_regs_pkg::PlanarS1planeAddr): cfg_q.s1plane <= cfg_wdata_i[ane_regs_pkg::PlanarS1planeBits-1:0];
        6'(ane_regs_pkg::PlanarS2baseAddr): cfg_q.s2base <= cfg_wdata_i[ane_regs_pkg::PlanarS2baseBits-1:0];
        6'(ane_regs_pkg::PlanarS2rowAddr): cfg_q.s2row <= cfg_wdata_i[ane_regs_pkg::PlanarS2rowBits-1:0];
        6'(ane_regs_pkg::PlanarS2planeAddr): cfg_q.s2plane <= cfg_wdata_i[ane_regs_pkg::PlanarS2planeBits-1:0];
        6'(ane_regs_pkg::PlanarDbaseAddr): cfg_q.dbase <= cfg_wdata_i[ane_regs_pkg::PlanarDbaseBits-1:0];
        6'(ane_regs_pkg::PlanarDrowAddr): cfg_q.drow <= cfg_wdata_i[ane_regs_pkg::PlanarDrowBits-1:0];
        6'(ane_regs_pkg::PlanarDplaneAddr): cfg_q.dplane <= cfg_wdata_i[ane_regs_pkg::PlanarDplaneBits-1:0];
        default: ;
      endcase
    end
  end

  // the task kind and the operator's arity
  logic k_ew, k_tree, k_line, k_pool, axis, flat;
  assign k_ew   = cfg_q.mode.kind == 2'd0;
  assign k_tree = cfg_q.mode.kind == 2'd1;
  assign k_line = cfg_q.mode.kind == 2'd2;
  assign k_pool = cfg_q.mode.kind == 2'd3;
  assign axis   = cfg_q.mode.axis;
  assign flat   = k_pool && cfg_q.pool.flat;
  // (the codes as plain vectors: Yosys 0.23 does not take a cast to an enum type; the ports of
  // enum type take them as they are)
  logic [3:0] ewop;
  logic [1:0] treeop;
  logic use1, use2;
  assign ewop   = cfg_q.mode.ewop;
  assign treeop = cfg_q.mode.treeop;
  assign use2 = ewop == ane_pkg::PeEwAddMul || ewop == ane_pkg::PeEwMulAfterAdd;
  assign use1 = use2 || ewop == ane_pkg::PeEwAdd || ewop == ane_pkg::PeEwSub || ewop == ane_pkg::PeEwMul ||
                ewop == ane_pkg::PeEwMax || ewop == ane_pkg::PeEwMin || ewop == ane_pkg::PeEwCmp;

  // ---------------------------------------------------------------- the walker
  localparam int unsigned NP = 4;   // pointers: sources 0..2, the result (3)
  logic [13:0] wd, ht, ch;
  assign wd = cfg_q.shape.w;
  assign ht = cfg_q.shape.h;
  assign ch = cfg_q.chan.c;
  // beats (chunks) per row; line-buffer strips and the last one's width; channel groups and the
  // last one's channels
  logic [13:0] nx, nsl, wl, ng, cl, ws, runw;
  // a row's positions: W, or a FLAT pooling's whole plane (one run of POOLN.N)
  assign runw = flat ? cfg_q.pooln.n : wd;
  assign nx  = 14'((15'(runw) + 15'(NumLanes - 1)) >> LL);
  assign nsl = 14'((15'(wd) + 15'(LineW - 1)) >> LWL);
  assign wl  = 14'(((wd - 14'd1) & 14'(LineW - 1)) + 14'd1);
  assign ng  = 14'((15'(ch) + 15'(NumLanes - 1)) >> LL);
  assign cl  = 14'(((ch - 14'd1) & 14'(NumLanes - 1)) + 14'd1);

  logic [3:0] int8, bw;
  assign int8 = {cfg_q.fmt.d_int8, cfg_q.fmt.s2_int8, cfg_q.fmt.s1_int8, cfg_q.fmt.s0_int8};
  assign bw   = {1'b0, cfg_q.fmt.s2_bw, cfg_q.fmt.s1_bw, cfg_q.fmt.s0_bw};
  logic [NP*32-1:0] base, rowst, planest, wss, ws0, ws1, ws2;
  assign base    = {cfg_q.dbase.base, cfg_q.s2base.base, cfg_q.s1base.base, cfg_q.s0base.base};
  assign rowst   = {cfg_q.drow.stride, cfg_q.s2row.stride, cfg_q.s1row.stride, cfg_q.s0row.stride};
  assign planest = {cfg_q.dplane.stride, cfg_q.s2plane.stride, cfg_q.s1plane.stride, cfg_q.s0plane.stride};
  logic [13:0] wn0, wn1, wn2, wn2l, wns;
  always_comb begin
    // counts
    wns  = 14'd1;
    wn0  = ch;
    wn1  = ht;
    wn2  = nx;
    wn2l = nx;
    if (k_line) begin
      wns  = nsl;
      wn0  = axis ? ht : ch;
      wn1  = axis ? ch : ht;
      wn2  = 14'(LineW / NumLanes);
      wn2l = 14'((15'(wl) + 15'(NumLanes - 1)) >> LL);
    end else if (k_pool) begin
      wns  = ng;
      wn0  = flat ? 14'd1 : ht;
      wn1  = nx;
      wn2  = 14'(NumLanes);
      wn2l = cl;
    end
  end
  for (genvar k = 0; k < NP; k++) begin : g_stride
    logic [31:0] beat, strip, pl, rw;
    assign beat  = bw[k] ? 32'd0 : (int8[k] ? 32'(NumLanes) : 32'(2 * NumLanes));
    assign strip = bw[k] ? 32'd0 : (int8[k] ? 32'(LineW) : 32'(2 * LineW));
    assign pl    = planest[32*k +: 32];
    assign rw    = rowst[32*k +: 32];
    if (k < 3) begin : g_s
      assign wss[32*k +: 32] = k_line ? strip : (k_pool ? pl << LL : 32'd0);
      assign ws0[32*k +: 32] = (k_pool || (k_line && axis)) ? rw : pl;
      assign ws1[32*k +: 32] = k_pool ? beat : ((k_line && axis) ? pl : rw);
      assign ws2[32*k +: 32] = k_pool ? pl : beat;
    end else begin : g_d
      // the result's pointer: where each beat (kind 0), list (1) or job (2) is written; a
      // pooling's descriptors come from ane_planar_pool
      assign wss[32*k +: 32] = k_line ? strip : 32'd0;
      assign ws0[32*k +: 32] = (k_line && axis) ? rw : pl;
      assign ws1[32*k +: 32] = (k_ew || (k_tree && !axis)) ? rw : 32'd0;
      assign ws2[32*k +: 32] = k_ew ? beat : 32'd0;
    end
  end

  logic        run, step, lasts, last0, last1, last2;
  logic [13:0] istrip, i0, i1, i2;
  logic [NP*32-1:0] p;
  ane_planar_walk #(.NP(NP)) u_walk (
    .clk_i, .rst_ni, .start_i(start), .step_i(step),
    .ns_i(wns), .n0_i(wn0), .n1_i(wn1), .n2_i(wn2), .n2_last_i(wn2l),
    .base_i(base), .ss_i(wss), .s0_i(ws0), .s1_i(ws1), .s2_i(ws2),
    .run_o(run), .is_o(istrip), .i0_o(i0), .i1_o(i1), .i2_o(i2),
    .lasts_o(lasts), .last0_o(last0), .last1_o(last1), .last2_o(last2), .p_o(p)
  );

  // the beat's elements: NumLanes, or the rest of the row (of the strip); a pooling's chunk
  logic [14:0] rest, jbeats;
  logic [13:0] ix;
  logic [NW-1:0] beat_n;
  assign ws     = lasts ? wl : 14'(LineW);
  assign ix     = k_pool ? i1 : i2;
  assign rest   = k_line ? 15'(ws) - (15'(i2) << LL) : 15'(runw) - (15'(ix) << LL);
  assign jbeats = (15'(ws) + 15'(NumLanes - 1)) >> LL;   // a line-buffer job's result beats
  assign beat_n = rest >= 15'(NumLanes) ? NW'(NumLanes) : NW'(rest);
  // lists (the tree), jobs (the line buffer)
  logic lfirst, llast, jfirst;
  assign lfirst = i2 == '0 && (!axis || i1 == '0);
  assign llast  = last2 && (!axis || last1);
  assign jfirst = i2 == '0 && i1 == '0;

  // queues: each source's requests, the descriptors (dq), the line buffer's jobs (lq)
  logic [2:0] rq_ready, rq_valid, src_on;
  logic       dq_ready, dq_push, lq_ready;
  assign src_on  = {use2, use1, 1'b1};
  assign step    = run && (&(rq_ready | ~src_on)) && dq_ready && (!k_line || lq_ready);
  assign rq_valid = src_on & {3{step}};
  assign dq_push = step && (!k_line || jfirst);

  // ---------------------------------------------------------------- sources
  logic [2:0]      rd_valid, rd_ready, rs_valid, b_valid, b_ready, r_busy;
  logic [3*32-1:0] rd_addr;
  logic [3*LB-1:0] rs_data, b_data;
  assign s0_rd_valid_o = rd_valid[0];
  assign s1_rd_valid_o = rd_valid[1];
  assign s2_rd_valid_o = rd_valid[2];
  assign s0_rd_addr_o  = rd_addr[31:0];
  assign s1_rd_addr_o  = rd_addr[63:32];
  assign s2_rd_addr_o  = rd_addr[95:64];
  assign rd_ready = {s2_rd_ready_i, s1_rd_ready_i, s0_rd_ready_i};
  assign rs_valid = {s2_rs_valid_i, s1_rs_valid_i, s0_rs_valid_i};
  assign rs_data  = {s2_rs_data_i, s1_rs_data_i, s0_rs_data_i};

  for (genvar s = 0; s < 3; s++) begin : g_src
    // the walker's requests wait in a short queue in front of the reader
    logic        q_valid, q_ready, q_int8, q_bw;
    logic [31:0] q_addr;
    logic [1:0]  q_count;
    ane_fifo #(.Width(34), .Depth(2)) u_rq (
      .clk_i, .rst_ni, .in_valid_i(rq_valid[s]), .in_ready_o(rq_ready[s]),
      .in_data_i({bw[s], int8[s], p[32*s +: 32]}),
      .out_valid_o(q_valid), .out_ready_i(q_ready), .out_data_o({q_bw, q_int8, q_addr}), .count_o(q_count)
    );
    ane_planar_rd #(.NumLanes(NumLanes), .Depth(RdDepth)) u_rd (
      .clk_i, .rst_ni,
      .req_valid_i(q_valid), .req_ready_o(q_ready), .req_addr_i(q_addr), .req_int8_i(q_int8), .req_bw_i(q_bw),
      .rd_valid_o(rd_valid[s]), .rd_ready_i(rd_ready[s]), .rd_addr_o(rd_addr[32*s +: 32]),
      .rs_valid_i(rs_valid[s]), .rs_data_i(rs_data[LB*s +: LB]),
      .out_valid_o(b_valid[s]), .out_ready_i(b_ready[s]), .out_data_o(b_data[LB*s +: LB]), .busy_o(r_busy[s])
    );
    logic unused_count;
    assign unused_count = ^q_count;
  end

  // ---------------------------------------------------------------- the elementwise path
  // the join: a beat of every source read; s0 into FC_A, s1 and s2 into the side queue
  // The join has a skid register: the readers are popped when every source has a beat and the
  // skid is empty, whatever FC_A and the side queue do; a beat they refuse waits in the skid and
  // leaves before the next is popped. So the readers' answer queues see a flop and the sources'
  // valids, not the ready chain of FC_A, EW, the post unit and the units after it (ane_planar's
  // critical path before: a configuration bit through that chain into reader 1's answer queue).
  // No cycle is added: a beat the units take at once passes the skid as a wire.
  logic            bjoin, fa_in_ready, side_in_ready, b_all, b_take, j_valid, j_ready, sk_q;
  logic [3*LB-1:0] j_data, sk_data_q;
  assign b_all   = &(b_valid | ~src_on);
  assign b_take  = b_all && !sk_q;
  assign b_ready = src_on & {3{b_take}};
  assign j_valid = sk_q || b_all;
  assign j_data  = sk_q ? sk_data_q : b_data;
  assign j_ready = (fa_in_ready || cfg_q.fcctl.a_bypass) && side_in_ready;
  assign bjoin   = j_valid && j_ready;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) sk_q <= 1'b0;
    else if (b_take && !j_ready) sk_q <= 1'b1;
    else if (j_ready) sk_q <= 1'b0;
  end
  always_ff @(posedge clk_i) begin
    if (b_take && !j_ready) sk_data_q <= b_data;
  end

  logic          fa_valid, fa_ready, side_valid, side_ready, ew_in_ready;
  logic [LB-1:0] fa_y, side_b, side_c;
  logic [$clog2(16):0] side_count;
  ane_pe_fc #(.NumLanes(NumLanes), .NumChannels(1)) u_fca (
    .clk_i, .rst_ni,
    .cfg_we_i(start), .cfg_addr_i(1'b0), .cfg_scale_i(cfg_q.fca.scale), .cfg_bias_i(cfg_q.fca.bias),
    .in_valid_i(bjoin && !a_byp), .in_ready_o(fa_in_ready), .in_data_i(j_data[LB-1:0]), .in_int8_i(1'b0),
    .in_perch_i(1'b0), .in_ch_i(1'b0), .in_unary_i(cfg_q.fcctl.a_unary),
    .in_gain_i(1'b0), .in_out_int8_i(1'b0),
    .out_valid_o(fa_valid), .out_ready_i(fa_ready), .out_y_o(fa_y)
  );
  // FC_A holds at most its 9 stages and the output register: 16 places keep the bjoin at full rate.
  // The side queue carries source 0 as well: with FCCTL.A_BYPASS it goes to EW from there.
  logic          a_byp, o_byp, fa_go;
  logic [LB-1:0] side_a, ew_a;
  assign a_byp = cfg_q.fcctl.a_bypass;
  assign o_byp = cfg_q.fcctl.o_bypass;
  ane_fifo #(.Width(3 * LB), .Depth(16)) u_side (
    .clk_i, .rst_ni, .in_valid_i(bjoin), .in_ready_o(side_in_ready), .in_data_i(j_data),
    .out_valid_o(side_valid), .out_ready_i(side_ready), .out_data_o({side_c, side_b, side_a}), .count_o(side_count)
  );
  assign fa_go      = a_byp || fa_valid;
  assign fa_ready   = side_valid && ew_in_ready;
  assign side_ready = fa_go && ew_in_ready;
  assign ew_a       = a_byp ? side_a : fa_y;

  logic          ew_valid, ew_ready, po_in_ready, po_valid, po_ready, fo_in_ready, fo_valid, fo_ready;
  logic          fo_in_valid, fc_in_ready, fc_valid;
  logic [LB-1:0] ew_y, po_y, fo_y, fo_in_y, fc_y;
  ane_pe_ew #(.NumLanes(NumLanes)) u_ew (
    .clk_i, .rst_ni, .in_valid_i(fa_go && side_valid), .in_ready_o(ew_in_ready), .in_op_i(ewop),
    .in_a_i(ew_a), .in_b_i(side_b), .in_c_i(side_c),
    .out_valid_o(ew_valid), .out_ready_i(ew_ready), .out_y_o(ew_y)
  );
  ane_pe_post #(.NumLanes(NumLanes)) u_post (
    .clk_i, .rst_ni, .in_valid_i(ew_valid), .in_ready_o(po_in_ready),
    .in_op_i(cfg_q.mode.postop), .in_data_i(ew_y),
    .out_valid_o(po_valid), .out_ready_i(po_ready), .out_data_o(po_y)
  );
  assign ew_ready = po_in_ready;
  ane_pe_fc #(.NumLanes(NumLanes), .NumChannels(1)) u_fco (
    .clk_i, .rst_ni,
    .cfg_we_i(start), .cfg_addr_i(1'b0), .cfg_scale_i(cfg_q.fco.scale), .cfg_bias_i(cfg_q.fco.bias),
    .in_valid_i(fo_in_valid && !o_byp), .in_ready_o(fc_in_ready), .in_data_i(fo_in_y), .in_int8_i(1'b0),
    .in_perch_i(1'b0), .in_ch_i(1'b0), .in_unary_i(cfg_q.fcctl.o_unary),
    .in_gain_i(cfg_q.fcctl.o_gain), .in_out_int8_i(cfg_q.fmt.d_int8),
    .out_valid_o(fc_valid), .out_ready_i(fo_ready && !o_byp), .out_y_o(fc_y)
  );
  // with FCCTL.O_BYPASS the results go to the writer as they are, through a register (a queue of
  // two: the writer's ready does not reach back to the units in front)
  logic          ob_in_ready, ob_valid;
  logic [LB-1:0] ob_y;
  logic [1:0]    ob_count;
  ane_fifo #(.Width(LB), .Depth(2)) u_obyp (
    .clk_i, .rst_ni, .in_valid_i(fo_in_valid && o_byp), .in_ready_o(ob_in_ready), .in_data_i(fo_in_y),
    .out_valid_o(ob_valid), .out_ready_i(fo_ready && o_byp), .out_data_o(ob_y), .count_o(ob_count)
  );
  assign fo_in_ready = o_byp ? ob_in_ready : fc_in_ready;
  assign fo_valid    = o_byp ? ob_valid : fc_valid;
  assign fo_y        = o_byp ? ob_y : fc_y;

  // the units after POST (declared here: the routing below connects them)
  logic          tr_in_ready, tr_valid, tr_ready, tr_in_valid;
  logic [31:0]   tr_fp32, tt_fp32;
  logic [15:0]   tr_fp16, tt_fp16;
  logic          tt_valid, tt_ready, tq_in_ready;
  logic          d_valid, d_ready, d_int8;
  logic [31:0]   d_addr;
  logic [NW-1:0] d_n;

  // ---------------------------------------------------------------- descriptors
  // dq: from the walker, in beat order: a result beat's write (kind 0), a beat's list marks
  // (1), a job's result address and count (2), a chunk's positions and group end (3).
  // wq: the writes of kinds 1 .. 3, from the patch assembler, the packer and ane_planar_pool.
  localparam int unsigned DW = 3 + QW + 32;
  logic          dq_valid, dq_ready_o, dq_first, dq_last, dq_int8;
  logic [QW-1:0] dq_n;
  logic [31:0]   dq_addr;
  logic [$clog2(DstDepth):0] dq_count;
  // (the entry's fields as signals of their own: Yosys 0.23 sizes a conditional of casts inside
  // a concatenation wrongly, and drops the fields above it)
  logic          dq_in_first, dq_in_last;
  logic [QW-1:0] dq_in_n;
  always_comb begin
    dq_in_first = k_line ? 1'b0 : lfirst;
    dq_in_last  = k_pool ? last2 : llast;
    dq_in_n     = QW'(beat_n);
    if (k_line) dq_in_n = QW'(ws);
  end
  ane_fifo #(.Width(DW), .Depth(DstDepth)) u_dq (
    .clk_i, .rst_ni, .in_valid_i(dq_push), .in_ready_o(dq_ready),
    .in_data_i({dq_in_first, dq_in_last, int8[3], dq_in_n, p[32*3 +: 32]}),
    .out_valid_o(dq_valid), .out_ready_i(dq_ready_o), .out_data_o({dq_first, dq_last, dq_int8, dq_n, dq_addr}),
    .count_o(dq_count)
  );
  logic          wq_push, wq_ready, wq_valid, wq_pop;
  logic [31:0]   wq_in_addr, wq_addr;
  logic [NW-1:0] wq_in_n, wq_n;
  logic [$clog2(DstDepth):0] wq_count;
  ane_fifo #(.Width(32 + NW), .Depth(DstDepth)) u_wq (
    .clk_i, .rst_ni, .in_valid_i(wq_push), .in_ready_o(wq_ready), .in_data_i({wq_in_n, wq_in_addr}),
    .out_valid_o(wq_valid), .out_ready_i(wq_pop), .out_data_o({wq_n, wq_addr}), .count_o(wq_count)
  );

  // ---------------------------------------------------------------- the tree (kind 1)
  logic          pa_in_ready, pa_end, pa_valid, pa_first, pa_last;
  logic [63:0]   pa_mask;
  logic [64*16-1:0] pa_data;
  ane_planar_patch #(.NumLanes(NumLanes)) u_patch (
    .clk_i, .rst_ni,
    .in_valid_i(k_tree && po_valid && dq_valid), .in_ready_o(pa_in_ready), .in_data_i(po_y),
    .in_n_i(NW'(dq_n)), .in_first_i(dq_first), .in_last_i(dq_last), .room_i(wq_ready), .end_o(pa_end),
    .out_valid_o(pa_valid), .out_ready_i(tr_in_ready), .out_first_o(pa_first), .out_last_o(pa_last),
    .out_mask_o(pa_mask), .out_data_o(pa_data)
  );

  // ---------------------------------------------------------------- the line buffer (kind 2)
  logic          lq_valid, lq_pop, lb_cfg_ready, lb_in_ready, lb_p_valid, lb_r_ready, lb_o_valid, lb_o_ready;
  logic [13:0]   lq_n;
  logic [QW-1:0] lq_len;
  logic [1:0]    lq_op, lb_p_op;
  logic [63:0]   lb_p_mask;
  logic [64*16-1:0] lb_p_data;
  logic [31:0]   lb_o_fp32;
  logic [15:0]   lb_o_fp16;
  logic          lb_busy;
  logic [2:0]    lq_count;
  logic [13:0]   lq_in_n;
  logic [QW-1:0] lq_in_len;
  assign lq_in_n   = axis ? ch : ht;
  assign lq_in_len = QW'(ws);
  ane_fifo #(.Width(14 + QW + 2), .Depth(4)) u_lq (
    .clk_i, .rst_ni, .in_valid_i(k_line && step && jfirst), .in_ready_o(lq_ready),
    .in_data_i({lq_in_n, lq_in_len, cfg_q.mode.treeop}),
    .out_valid_o(lq_valid), .out_ready_i(lq_pop), .out_data_o({lq_n, lq_len, lq_op}), .count_o(lq_count)
  );
  assign lq_pop = lq_valid && lb_cfg_ready;
  ane_pe_linebuf #(.NumLanes(NumLanes), .MaxW(LineW), .CntW(14)) u_lb (
    .clk_i, .rst_ni,
    .cfg_valid_i(lq_valid), .cfg_ready_o(lb_cfg_ready), .cfg_op_i(lq_op),
    .cfg_n_i(lq_n), .cfg_len_i(lq_len),
    .in_valid_i(k_line && po_valid), .in_ready_o(lb_in_ready), .in_data_i(po_y),
    .p_valid_o(lb_p_valid), .p_ready_i(tr_in_ready && k_line), .p_op_o(lb_p_op), .p_mask_o(lb_p_mask),
    .p_data_o(lb_p_data),
    .r_valid_i(tr_valid && k_line), .r_ready_o(lb_r_ready), .r_fp32_i(tr_fp32),
    .out_valid_o(lb_o_valid), .out_ready_i(lb_o_ready), .out_fp32_o(lb_o_fp32), .out_fp16_o(lb_o_fp16),
    .busy_o(lb_busy)
  );
  logic          pk_j_ready, pk_o_valid, pk_d_valid;
  logic [LB-1:0] pk_o_data;
  logic [31:0]   pk_d_addr;
  logic [NW-1:0] pk_d_n;
  ane_planar_pack #(.NumLanes(NumLanes), .LW(QW)) u_pack (
    .clk_i, .rst_ni, .int8_i(int8[3]),
    .j_valid_i(k_line && dq_valid), .j_ready_o(pk_j_ready), .j_addr_i(dq_addr), .j_len_i(dq_n),
    .r_valid_i(lb_o_valid), .r_ready_o(lb_o_ready), .r_data_i(lb_o_fp16),
    .o_valid_o(pk_o_valid), .o_ready_i(pk_o_ready), .o_data_o(pk_o_data),
    .d_valid_o(pk_d_valid), .d_ready_i(wq_ready), .d_addr_o(pk_d_addr), .d_n_o(pk_d_n)
  );
  // the packed line results through a two-entry queue whose room is a flop: the output
  // converter's multiplier then starts at a flop instead of at the line buffer's fp32 register
  // and its fp16 rounding (ane_planar's critical path before: 196.0 MHz); one cycle of latency,
  // one result per cycle
  logic          pk_o_ready, pq_valid, pq_in_ready;
  logic [LB-1:0] pq_data;
  logic [1:0]    pq_count;
  assign pk_o_ready = pq_count != 2'd2;
  ane_fifo #(.Width(LB), .Depth(2)) u_pq (
    .clk_i, .rst_ni,
    .in_valid_i(pk_o_valid && pk_o_ready), .in_ready_o(pq_in_ready), .in_data_i(pk_o_data),
    .out_valid_o(pq_valid), .out_ready_i(fo_in_ready && k_line), .out_data_o(pq_data), .count_o(pq_count)
  );

  // ---------------------------------------------------------------- the reduction tree (kinds 1, 2)
  assign tr_in_valid = k_tree ? pa_valid : (k_line && lb_p_valid);
  ane_pe_reduce u_tree (
    .clk_i, .rst_ni,
    .in_valid_i(tr_in_valid), .in_ready_o(tr_in_ready),
    .in_op_i(k_tree ? treeop : lb_p_op),
    .in_first_i(k_tree ? pa_first : 1'b1), .in_last_i(k_tree ? pa_last : 1'b1),
    .in_mask_i(k_tree ? pa_mask : lb_p_mask), .in_data_i(k_tree ? pa_data : lb_p_data),
    .out_valid_o(tt_valid), .out_ready_i(tt_ready), .out_fp32_o(tt_fp32), .out_fp16_o(tt_fp16)
  );
  // the tree's results through a two-entry queue whose room is a flop: the tree's stall enable
  // (every stage of it) then starts at the queue's count instead of at the line buffer's hazard
  // check or the result path's handshakes (ane_planar's critical path before: 174.2 MHz); one
  // cycle of latency, one result per cycle
  logic [1:0] tq_count;
  assign tt_ready = tq_count != 2'd2;
  ane_fifo #(.Width(48), .Depth(2)) u_tq (
    .clk_i, .rst_ni,
    .in_valid_i(tt_valid && tt_ready), .in_ready_o(tq_in_ready), .in_data_i({tt_fp32, tt_fp16}),
    .out_valid_o(tr_valid), .out_ready_i(tr_ready), .out_data_o({tr_fp32, tr_fp16}), .count_o(tq_count)
  );
  assign tr_ready = k_tree ? fo_in_ready : lb_r_ready;

  // ---------------------------------------------------------------- the pooling path (kind 3)
  logic          pl_in_ready, pl_o_valid, pl_d_valid, pl_orun, pl_busy;
  logic [LB-1:0] pl_o_data;
  logic [31:0]   pl_d_addr;
  logic [NW-1:0] pl_d_n;
  ane_planar_pool #(.NumLanes(NumLanes), .PoolW(PoolW)) u_pool (
    .clk_i, .rst_ni, .start_i(start && cfg_q.mode.kind == 2'd3), .hwc_i(cfg_q.mode.axis), .op_i(treeop),
    .c_i(ch), .h_i(ht), .w_i(wd), .oh_i(cfg_q.poolout.oh), .ow_i(cfg_q.poolout.ow),
    .kh_i(cfg_q.pool.kh), .kw_i(cfg_q.pool.kw), .sy_i(cfg_q.pool.sy), .sx_i(cfg_q.pool.sx),
    .pt_i(cfg_q.pool.pt), .pl_i(cfg_q.pool.pl),
    .dbase_i(cfg_q.dbase.base), .drow_i(cfg_q.drow.stride), .dplane_i(cfg_q.dplane.stride), .d_int8_i(int8[3]),
    .in_valid_i(k_pool && po_valid && dq_valid), .in_ready_o(pl_in_ready), .in_data_i(po_y),
    .in_n_i(NW'(dq_n)), .in_clast_i(dq_last),
    .out_valid_o(pl_o_valid), .out_ready_i(fo_in_ready && k_pool), .out_data_o(pl_o_data),
    .d_valid_o(pl_d_valid), .d_ready_i(wq_ready && k_pool), .d_addr_o(pl_d_addr), .d_n_o(pl_d_n),
    .orun_o(pl_orun), .busy_o(pl_busy)
  );

  // ---------------------------------------------------------------- routing by kind
  always_comb begin
    po_ready    = fo_in_ready;
    fo_in_valid = po_valid;
    fo_in_y     = po_y;
    dq_ready_o  = d_ready;
    wq_push     = 1'b0;
    wq_in_addr  = dq_addr;
    wq_in_n     = NW'(1);
    unique case (cfg_q.mode.kind)
      2'd1: begin
        po_ready    = pa_in_ready && dq_valid;
        dq_ready_o  = pa_in_ready && po_valid;
        fo_in_valid = tr_valid;
        fo_in_y     = LB'(tr_fp16);
        wq_push     = pa_end;
      end
      2'd2: begin
        po_ready    = lb_in_ready;
        dq_ready_o  = pk_j_ready;
        fo_in_valid = pq_valid;
        fo_in_y     = pq_data;
        wq_push     = pk_d_valid;
        wq_in_addr  = pk_d_addr;
        wq_in_n     = pk_d_n;
      end
      2'd3: begin
        po_ready    = pl_in_ready && dq_valid;
        dq_ready_o  = pl_in_ready && po_valid;
        fo_in_valid = pl_o_valid;
        fo_in_y     = pl_o_data;
        wq_push     = pl_d_valid;
        wq_in_addr  = pl_d_addr;
        wq_in_n     = pl_d_n;
      end
      default: ;
    endcase
  end

  // ---------------------------------------------------------------- the result
  assign d_valid = k_ew ? dq_valid : wq_valid;
  assign d_addr  = k_ew ? dq_addr : wq_addr;
  assign d_n     = k_ew ? NW'(dq_n) : wq_n;
  assign d_int8  = int8[3];
  assign wq_pop  = !k_ew && d_ready;
  logic written;
  ane_planar_wr #(.NumLanes(NumLanes)) u_wr (
    .clk_i, .rst_ni,
    .in_valid_i(fo_valid), .in_ready_o(fo_ready), .in_data_i(fo_y),
    .d_valid_i(d_valid), .d_ready_o(d_ready), .d_addr_i(d_addr), .d_n_i(d_n), .d_int8_i(d_int8),
    .wr_valid_o, .wr_ready_i, .wr_addr_o, .wr_data_o, .wr_strb_o, .written_o(written)
  );

  // ---------------------------------------------------------------- busy, done, counters
  // writes owed: each beat (kind 0), list (1) or job's result beats (2) counts when the walker
  // issues it, each pooling write when its descriptor is made (3)
  // owe and written reach the count a cycle late, through registers of their own (a write is
  // never in the cycle of the step that owes it, so the delayed count never goes below zero); the
  // count's adder then starts at flops instead of at the end of the walker's and the writer's
  // handshakes (ane_planar's critical path before: the line buffer's read pointer to owed_q)
  logic [31:0] owed_q, owe, owe_q;
  logic        busy_q, fin, written_q;
  always_comb begin
    unique case (cfg_q.mode.kind)
      2'd0: owe = 32'(step);
      2'd1: owe = 32'(step && llast);
      2'd2: owe = (step && jfirst) ? 32'(jbeats) : 32'd0;
      default: owe = 32'(pl_d_valid && wq_ready && pl_d_n != '0);
    endcase
  end
  // done: every write made, and nothing of the task left in a queue or a unit (a pooling's
  // dropped beats leave after its last write)
  assign fin = busy_q && !run && !pl_orun && !pl_busy && owed_q == 32'd0 && owe_q == 32'd0 && !written_q
               && !dq_valid && !wq_valid && !sk_q && !start;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q <= 1'b0;
      done_o <= 1'b0;
      owed_q <= '0;
      owe_q <= '0;
      written_q <= 1'b0;
      st_cycles_o <= '0;
      st_beats_o <= '0;
    end else begin
      done_o <= fin;
      if (start) busy_q <= 1'b1;
      else if (fin) busy_q <= 1'b0;
      owe_q <= owe;
      written_q <= written;
      owed_q <= owed_q + owe_q - 32'(written_q);
      if (start) begin
        st_cycles_o <= '0;
        st_beats_o <= '0;
      end else if (busy_q && !fin) begin
        st_cycles_o <= st_cycles_o + 32'd1;
        st_beats_o <= st_beats_o + 32'(written_q);
      end
    end
  end
  assign busy_o = busy_q;

  logic unused;
  assign unused = ^{tq_in_ready, pq_in_ready, pq_count, r_busy, side_count, ob_count, dq_count, wq_count, lq_count, lb_busy, lb_o_fp32, istrip, i0, last0,
                    dq_int8};

`ifndef SYNTHESIS
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni) begin
      if (start) begin
        assert (cfg_q.shape.w != '0 && cfg_q.shape.h != '0 && cfg_q.chan.c != '0);
        assert (!(cfg_q.fcctl.o_bypass && (cfg_q.fmt.d_int8 || cfg_q.fcctl.o_gain)));
        if (cfg_q.mode.kind == 2'd3 && cfg_q.pool.flat) assert (32'(cfg_q.pooln.n) == 32'(cfg_q.shape.w) * 32'(cfg_q.shape.h));
      end
      if (written_q) assert (owed_q != 32'd0 || owe_q != 32'd0);
    end
  end
  initial begin
    assert (LineW % NumLanes == 0 && (1 << LWL) == LineW && (1 << LL) == NumLanes && NumLanes <= 64);
  end
`endif

endmodule

`default_nettype wire
