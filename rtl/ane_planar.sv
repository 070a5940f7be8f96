// ane_planar: the planar engine (NUMERICS N-4, N-1; docs/planar.md "The engine"). It runs one
// task from its configuration registers (ane_regs_pkg::planar_cfg_t, rtl/regs/ane_regs.yaml):
// it walks the task's [C][H][W] tensor, reads up to three sources and writes the result through
// its memory ports, and sequences its own blocks; nothing outside it plans the beats.
//
//   elementwise (MODE.KIND 0), one beat of NumLanes elements of a row per cycle:
//     sources s0, s1, s2 (ane_planar_rd: int8 -> fp16, broadcast along W; a stride of 0
//     broadcasts along H or C)
//     s0 -> FC_A (ane_pe_fc: scale, bias, unary)  --+
//     s1, s2 --------------- (side FIFO) ------------+--> EW (ane_pe_ew: the operator on a,
//       b, c) --> POST (ane_pe_post: sqrt, recip, rsqrt or pass) --> FC_O (ane_pe_fc: scale,
//       bias, unary, the width-slice gain, the int8 store) --> ane_planar_wr
//   The sources an operator reads follow from its arity (1: s0; 2: s0, s1; 3: all).
//
// The walker: three nested loops over (c, y, x-beat), one beat a cycle while every source's
// request queue and the write descriptors' queue have room. Each source and the result keep a
// pointer per loop level (the outer level's start, the middle's, the beat's) and add the level's
// stride: plane, row and NumLanes elements (0 for a broadcast). Nothing multiplies.
//
// Cycles: after START, one beat per cycle when the memory keeps up; a task of B beats ends about
// B + the latency of a read + 35 (the units: FC_A 9, EW 6, POST 11, FC_O 9) cycles after START.
// busy_o is high from START to the last write; done_o pulses after it.
`default_nettype none

module ane_planar #(
  parameter int unsigned NumLanes = 16,
  parameter int unsigned RdDepth  = 16,   // a reader's answers in flight or held
  parameter int unsigned DstDepth = 64,   // beats between the walker and the writer
  localparam int unsigned NW      = $clog2(NumLanes + 1),
  localparam int unsigned LB      = NumLanes * 16
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

  // the operator's arity: the sources it reads
  ane_pkg::pe_ew_op_e ewop;
  logic use1, use2;
  assign ewop = ane_pkg::pe_ew_op_e'(cfg_q.mode.ewop);
  assign use2 = ewop == ane_pkg::PeEwAddMul || ewop == ane_pkg::PeEwMulAfterAdd;
  assign use1 = use2 || ewop == ane_pkg::PeEwAdd || ewop == ane_pkg::PeEwSub || ewop == ane_pkg::PeEwMul ||
                ewop == ane_pkg::PeEwMax || ewop == ane_pkg::PeEwMin || ewop == ane_pkg::PeEwCmp;

  // ---------------------------------------------------------------- the walker
  // Loop counters (the outer, middle and inner level: c, y, x-beat) and, per pointer (sources
  // 0..2 and the result, 3), the level pointers: p0 = base + i0 S0, p1 = p0 + i1 S1, p = p1 + i2 S2.
  localparam int unsigned NP = 4;
  logic        run_q;            // the walker is issuing the task's beats
  logic [13:0] i0_q, i1_q, i2_q, n0, n1, n2;
  logic [13:0] nx;               // beats per row
  logic [NP*32-1:0] p0_q, p1_q, p_q, s0, s1, s2, base;
  logic        last2, last1, last0, step;
  logic [NW-1:0] beat_n;         // elements in this beat
  logic [3:0]  int8;             // per pointer: 1-byte elements

  assign int8 = {cfg_q.fmt.d_int8, cfg_q.fmt.s2_int8, cfg_q.fmt.s1_int8, cfg_q.fmt.s0_int8};
  assign nx   = 14'((15'(cfg_q.shape.w) + 15'(NumLanes - 1)) >> $clog2(NumLanes));
  assign n0   = cfg_q.chan.c;
  assign n1   = cfg_q.shape.h;
  assign n2   = nx;
  assign base = {cfg_q.dbase.base, cfg_q.s2base.base, cfg_q.s1base.base, cfg_q.s0base.base};
  assign s0   = {cfg_q.dplane.stride, cfg_q.s2plane.stride, cfg_q.s1plane.stride, cfg_q.s0plane.stride};
  assign s1   = {cfg_q.drow.stride, cfg_q.s2row.stride, cfg_q.s1row.stride, cfg_q.s0row.stride};
  // a beat: NumLanes elements (a broadcast source: none)
  logic [3:0] bw;
  assign bw = {1'b0, cfg_q.fmt.s2_bw, cfg_q.fmt.s1_bw, cfg_q.fmt.s0_bw};
  for (genvar k = 0; k < NP; k++) begin : g_stride
    assign s2[32*k +: 32] = bw[k] ? 32'd0 : (int8[k] ? 32'(NumLanes) : 32'(2 * NumLanes));
  end

  assign last2 = i2_q == n2 - 14'd1;
  assign last1 = i1_q == n1 - 14'd1;
  assign last0 = i0_q == n0 - 14'd1;
  // the beat's elements: NumLanes, or the rest of the row
  logic [14:0] rest;
  assign rest   = 15'(cfg_q.shape.w) - (15'(i2_q) << $clog2(NumLanes));
  assign beat_n = rest >= 15'(NumLanes) ? NW'(NumLanes) : NW'(rest);

  // queues: each source's requests, the result's descriptors
  logic [2:0] rq_ready, rq_valid;
  logic [2:0] src_on;            // the sources the task reads
  logic       dq_ready, dq_valid;
  assign src_on = {use2, use1, 1'b1};
  assign step = run_q && (&(rq_ready | ~src_on)) && dq_ready;
  assign rq_valid = src_on & {3{step}};
  assign dq_valid = step;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      run_q <= 1'b0;
    end else if (start) begin
      run_q <= 1'b1;
    end else if (step && last2 && last1 && last0) begin
      run_q <= 1'b0;
    end
  end

  always_ff @(posedge clk_i) begin
    if (start) begin
      i0_q <= '0;
      i1_q <= '0;
      i2_q <= '0;
      p0_q <= base;
      p1_q <= base;
      p_q  <= base;
    end else if (step) begin
      if (!last2) begin
        i2_q <= i2_q + 14'd1;
        for (int k = 0; k < NP; k++) p_q[32*k +: 32] <= p_q[32*k +: 32] + s2[32*k +: 32];
      end else if (!last1) begin
        i2_q <= '0;
        i1_q <= i1_q + 14'd1;
        for (int k = 0; k < NP; k++) begin
          p1_q[32*k +: 32] <= p1_q[32*k +: 32] + s1[32*k +: 32];
          p_q[32*k +: 32]  <= p1_q[32*k +: 32] + s1[32*k +: 32];
        end
      end else begin
        i2_q <= '0;
        i1_q <= '0;
        i0_q <= i0_q + 14'd1;
        for (int k = 0; k < NP; k++) begin
          p0_q[32*k +: 32] <= p0_q[32*k +: 32] + s0[32*k +: 32];
          p1_q[32*k +: 32] <= p0_q[32*k +: 32] + s0[32*k +: 32];
          p_q[32*k +: 32]  <= p0_q[32*k +: 32] + s0[32*k +: 32];
        end
      end
    end
  end

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
      .in_data_i({bw[s], int8[s], p_q[32*s +: 32]}),
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
  logic bjoin, fa_in_ready, side_in_ready;
  assign bjoin = (&(b_valid | ~src_on)) && fa_in_ready && side_in_ready;
  assign b_ready = src_on & {3{bjoin}};

  logic          fa_valid, fa_ready, side_valid, side_ready, ew_in_ready;
  logic [LB-1:0] fa_y, side_b, side_c;
  logic [$clog2(16):0] side_count;
  ane_pe_fc #(.NumLanes(NumLanes), .NumChannels(1)) u_fca (
    .clk_i, .rst_ni,
    .cfg_we_i(start), .cfg_addr_i(1'b0), .cfg_scale_i(cfg_q.fca.scale), .cfg_bias_i(cfg_q.fca.bias),
    .in_valid_i(bjoin), .in_ready_o(fa_in_ready), .in_data_i(b_data[LB-1:0]), .in_int8_i(1'b0),
    .in_perch_i(1'b0), .in_ch_i(1'b0), .in_unary_i(ane_pkg::pe_fc_unary_e'(cfg_q.fcctl.a_unary)),
    .in_gain_i(1'b0), .in_out_int8_i(1'b0),
    .out_valid_o(fa_valid), .out_ready_i(fa_ready), .out_y_o(fa_y)
  );
  // FC_A holds at most its 9 stages and the output register: 16 places keep the bjoin at full rate
  ane_fifo #(.Width(2 * LB), .Depth(16)) u_side (
    .clk_i, .rst_ni, .in_valid_i(bjoin), .in_ready_o(side_in_ready), .in_data_i(b_data[3*LB-1:LB]),
    .out_valid_o(side_valid), .out_ready_i(side_ready), .out_data_o({side_c, side_b}), .count_o(side_count)
  );
  assign fa_ready   = side_valid && ew_in_ready;
  assign side_ready = fa_valid && ew_in_ready;

  logic          ew_valid, ew_ready, po_in_ready, po_valid, po_ready, fo_in_ready, fo_valid, fo_ready;
  logic [LB-1:0] ew_y, po_y, fo_y;
  ane_pe_ew #(.NumLanes(NumLanes)) u_ew (
    .clk_i, .rst_ni, .in_valid_i(fa_valid && side_valid), .in_ready_o(ew_in_ready), .in_op_i(ewop),
    .in_a_i(fa_y), .in_b_i(side_b), .in_c_i(side_c),
    .out_valid_o(ew_valid), .out_ready_i(ew_ready), .out_y_o(ew_y)
  );
  ane_pe_post #(.NumLanes(NumLanes)) u_post (
    .clk_i, .rst_ni, .in_valid_i(ew_valid), .in_ready_o(po_in_ready),
    .in_op_i(ane_pkg::pe_post_op_e'(cfg_q.mode.postop)), .in_data_i(ew_y),
    .out_valid_o(po_valid), .out_ready_i(po_ready), .out_data_o(po_y)
  );
  assign ew_ready = po_in_ready;
  ane_pe_fc #(.NumLanes(NumLanes), .NumChannels(1)) u_fco (
    .clk_i, .rst_ni,
    .cfg_we_i(start), .cfg_addr_i(1'b0), .cfg_scale_i(cfg_q.fco.scale), .cfg_bias_i(cfg_q.fco.bias),
    .in_valid_i(po_valid), .in_ready_o(fo_in_ready), .in_data_i(po_y), .in_int8_i(1'b0),
    .in_perch_i(1'b0), .in_ch_i(1'b0), .in_unary_i(ane_pkg::pe_fc_unary_e'(cfg_q.fcctl.o_unary)),
    .in_gain_i(cfg_q.fcctl.o_gain), .in_out_int8_i(cfg_q.fmt.d_int8),
    .out_valid_o(fo_valid), .out_ready_i(fo_ready), .out_y_o(fo_y)
  );
  assign po_ready = fo_in_ready;

  // ---------------------------------------------------------------- the result
  logic          d_valid, d_ready, d_int8;
  logic [31:0]   d_addr;
  logic [NW-1:0] d_n;
  logic [$clog2(DstDepth):0] d_count;
  ane_fifo #(.Width(32 + NW + 1), .Depth(DstDepth)) u_dq (
    .clk_i, .rst_ni, .in_valid_i(dq_valid), .in_ready_o(dq_ready),
    .in_data_i({cfg_q.fmt.d_int8, beat_n, p_q[32*3 +: 32]}),
    .out_valid_o(d_valid), .out_ready_i(d_ready), .out_data_o({d_int8, d_n, d_addr}), .count_o(d_count)
  );
  logic written;
  ane_planar_wr #(.NumLanes(NumLanes)) u_wr (
    .clk_i, .rst_ni,
    .in_valid_i(fo_valid), .in_ready_o(fo_ready), .in_data_i(fo_y),
    .d_valid_i(d_valid), .d_ready_o(d_ready), .d_addr_i(d_addr), .d_n_i(d_n), .d_int8_i(d_int8),
    .wr_valid_o, .wr_ready_i, .wr_addr_o, .wr_data_o, .wr_strb_o, .written_o(written)
  );

  // ---------------------------------------------------------------- busy, done, counters
  // beats issued by the walker and not yet written
  logic [31:0] owed_q;
  logic        busy_q, fin;
  assign fin = busy_q && !run_q && owed_q == 32'd0 && !start;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q <= 1'b0;
      done_o <= 1'b0;
      owed_q <= '0;
      st_cycles_o <= '0;
      st_beats_o <= '0;
    end else begin
      done_o <= fin;
      if (start) busy_q <= 1'b1;
      else if (fin) busy_q <= 1'b0;
      owed_q <= owed_q + 32'(step) - 32'(written);
      if (start) begin
        st_cycles_o <= '0;
        st_beats_o <= '0;
      end else if (busy_q && !fin) begin
        st_cycles_o <= st_cycles_o + 32'd1;
        st_beats_o <= st_beats_o + 32'(written);
      end
    end
  end
  assign busy_o = busy_q;

  logic unused;
  assign unused = ^{r_busy, side_count, d_count, cfg_q.mode.kind, cfg_q.mode.axis, cfg_q.mode.treeop, cfg_q.pool,
                    cfg_q.poolout, i0_q, i1_q};

`ifndef SYNTHESIS
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni) begin
      if (start) begin
        assert (cfg_q.mode.kind == 2'd0);
        assert (cfg_q.shape.w != '0 && cfg_q.shape.h != '0 && cfg_q.chan.c != '0);
      end
      if (written) assert (owed_q != 32'd0 || step);
    end
  end
`endif

endmodule

`default_nettype wire
