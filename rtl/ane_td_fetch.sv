// SPDX-License-Identifier: Apache-2.0
// ane_td_fetch: walks a chain of task descriptors (TDs, docs/td.md) in memory and hands out each
// TD's register writes (docs/td_fetch.md). A TD is 10 header words and seven streams at fixed
// offsets (the H13 layout, assumptions A1, A2); each stream is a header word ([31:24] count,
// [23:0] register byte address) and count/4+1 data words, data word i going to the register
// address + 4 i. Every header word and every stream data word goes out once, in TD order, on
// the write port (150 writes per TD); the stream header words are checked, not written.
// Chaining (A14): Header[0].EON = 1 ends the chain, else Header[7].NextPointer is the next TD's
// byte offset from the first TD's address. Every layout fact comes from ane_regs_pkg
// (rtl/ane_regs_pkg.sv, generated from rtl/regs/ane_regs.yaml).
//
// Per TD (index n at offset O from base_i):
//   1. address checks (two cycles): n < MaxTds (the loop guard), O 4-aligned, O + TdBytes <=
//      limit_i; a failure is the TD's status (no read of it is issued);
//   2. seven check reads, one per stream header word, then the TD's 79 beats in order (the
//      8-byte beats that hold its 157 words; the beats are read before the check result is
//      known, their words wait in the word buffer);
//   3. the answers: the check answers set the TD's status (the first bad stream), the beats'
//      words go into the word buffer without the stream header words (2 words per beat in, 1
//      word per cycle out); words 0 and 7 (EON, NextPointer) are kept for the walk;
//   4. the write side opens the TD once the previous TD's task_done_i has come and the TD's
//      status is known: good, its words leave one per cycle with their register address; bad,
//      the walk stops with error_o and no write of that TD has left. The next TD is prefetched
//      (checked and its first words buffered) while this one is written and run.
// No TD is ever held whole: the check reads cost 7 extra beats per TD instead of 157 x 32 flops.
// An error or the end of the chain stops the walk; reads still in flight are answered and
// dropped (busy_o stays high until the last one).
//
// Memory read port: 64-bit beats at 8-byte aligned addresses, answers in order after any
// latency (at least one cycle) without back-pressure. A beat read is issued only when the word
// buffer has room for its words (credits, as ane_core_kread).
`default_nettype none

module ane_td_fetch #(
  parameter int unsigned MaxTds = 4096,  // loop guard: TDs per chain; TD MaxTds is an error
  parameter int unsigned Depth  = 32     // word buffer entries (a power of two, >= 4): one write
                                         // per cycle up to a read latency of Depth - 8
) (
  input  wire logic                          clk_i,
  input  wire logic                          rst_ni,
  // control
  input  wire logic                          start_i,     // taken while busy_o is low
  input  wire logic [31:0]                   base_i,      // byte address of the first TD (4-aligned)
  input  wire logic [31:0]                   limit_i,     // bytes of the TD buffer from base_i
  output      logic                          busy_o,
  output      logic                          done_o,      // pulse: the EON TD's task_done_i came
  output      logic                          error_o,     // sticky until the next start
  output      logic [2:0]                    err_code_o,  // ErrStream .. ErrMaxTds (below)
  output      logic [2:0]                    err_stream_o,  // ErrStream: the first bad stream (0..6)
  output      logic [$clog2(MaxTds+1)-1:0]   err_td_o,    // the TD the walk could not take
  output      logic [31:0]                   err_off_o,   // its offset from base_i
  // memory read port
  output      logic                          rd_valid_o,
  input  wire logic                          rd_ready_i,
  output      logic [31:0]                   rd_addr_o,   // 8-byte aligned
  input  wire logic                          rs_valid_i,
  input  wire logic [63:0]                   rs_data_i,
  // register writes
  output      logic                          wr_valid_o,
  input  wire logic                          wr_ready_i,
  output      logic [23:0]                   wr_addr_o,   // register byte address, or header offset
  output      logic [31:0]                   wr_data_o,
  output      logic                          wr_header_o, // a header word (wr_addr_o 0 .. 0x24)
  output      logic [$clog2(MaxTds+1)-1:0]   wr_td_o,     // TD index in the chain
  output      logic                          wr_last_o,   // the TD's last write
  // the engine finished the TD whose writes went out last
  input  wire logic                          task_done_i
);

  // ---------------- the layout, from ane_regs_pkg ----------------
  localparam int unsigned TdWords  = ane_regs_pkg::TdBytes / 4;                // 157
  localparam int unsigned HdrWords = ane_regs_pkg::TdHeaderWords;              // 10
  localparam int unsigned NStreams = ane_regs_pkg::TdNumStreams;               // 7
  localparam int unsigned Beats    = (ane_regs_pkg::TdBytes + 4 + 7) / 8;      // 79, either phase
  localparam int unsigned Reads    = NStreams + Beats;                         // per TD
  localparam int unsigned WEon     = ane_regs_pkg::TdHeader0EONOff / 4;
  localparam int unsigned WNext    = ane_regs_pkg::TdHeader7NextPointerOff / 4;
  localparam int unsigned IW       = $clog2(MaxTds + 1);
  localparam int unsigned AW       = $clog2(Depth);
  localparam int unsigned OW       = $clog2(Depth + 2 * NStreams + 2);         // outstanding reads
  // register addresses: the end of the highest stream, and the bits below it
  localparam int unsigned E0 = ane_regs_pkg::TdKernelDMASrcAddr + 4 * ane_regs_pkg::TdKernelDMASrcWords;
  localparam int unsigned E1 = ane_regs_pkg::TdCommonAddr + 4 * ane_regs_pkg::TdCommonWords;
  localparam int unsigned E2 = ane_regs_pkg::TdTileDMASrcAddr + 4 * ane_regs_pkg::TdTileDMASrcWords;
  localparam int unsigned E3 = ane_regs_pkg::TdL2Addr + 4 * ane_regs_pkg::TdL2Words;
  localparam int unsigned E4 = ane_regs_pkg::TdPlanarAddr + 4 * ane_regs_pkg::TdPlanarWords;
  localparam int unsigned E5 = ane_regs_pkg::TdNEAddr + 4 * ane_regs_pkg::TdNEWords;
  localparam int unsigned E6 = ane_regs_pkg::TdTileDMADstAddr + 4 * ane_regs_pkg::TdTileDMADstWords;
  localparam int unsigned E01 = E0 > E1 ? E0 : E1;
  localparam int unsigned E23 = E2 > E3 ? E2 : E3;
  localparam int unsigned E45 = E4 > E5 ? E4 : E5;
  localparam int unsigned E03 = E01 > E23 ? E01 : E23;
  localparam int unsigned E46 = E45 > E6 ? E45 : E6;
  localparam int unsigned EMax = E03 > E46 ? E03 : E46;
  localparam int unsigned RegW = $clog2(EMax);                                  // 17
  localparam int unsigned RaW  = RegW - 2;                                      // word address

  // error codes (err_code_o)
  localparam logic [2:0] ErrNone   = 3'd0;
  localparam logic [2:0] ErrStream = 3'd1;  // a stream header word is not the H13 layout's
  localparam logic [2:0] ErrLimit  = 3'd2;  // the TD is not within [base, base + limit)
  localparam logic [2:0] ErrAlign  = 3'd3;  // NextPointer is not a multiple of 4
  localparam logic [2:0] ErrMaxTds = 3'd4;  // the chain reaches TD MaxTds (a loop runs into it)

  // Stream s (0..6 in TD order, as tb/regs/ane_regs.h kStreams): its header word's TD word index,
  // the header word, its data words and the register address of data word 0.
  function automatic logic [7:0] s_word(input logic [2:0] s);
    unique case (s)
      3'd0:    s_word = 8'(ane_regs_pkg::TdKernelDMASrcOff / 4);
      3'd1:    s_word = 8'(ane_regs_pkg::TdCommonOff / 4);
      3'd2:    s_word = 8'(ane_regs_pkg::TdTileDMASrcOff / 4);
      3'd3:    s_word = 8'(ane_regs_pkg::TdL2Off / 4);
      3'd4:    s_word = 8'(ane_regs_pkg::TdPlanarOff / 4);
      3'd5:    s_word = 8'(ane_regs_pkg::TdNEOff / 4);
      default: s_word = 8'(ane_regs_pkg::TdTileDMADstOff / 4);
    endcase
  endfunction
  function automatic logic [31:0] s_header(input logic [2:0] s);
    unique case (s)
      3'd0:    s_header = 32'(ane_regs_pkg::TdKernelDMASrcHeader);
      3'd1:    s_header = 32'(ane_regs_pkg::TdCommonHeader);
      3'd2:    s_header = 32'(ane_regs_pkg::TdTileDMASrcHeader);
      3'd3:    s_header = 32'(ane_regs_pkg::TdL2Header);
      3'd4:    s_header = 32'(ane_regs_pkg::TdPlanarHeader);
      3'd5:    s_header = 32'(ane_regs_pkg::TdNEHeader);
      default: s_header = 32'(ane_regs_pkg::TdTileDMADstHeader);
    endcase
  endfunction
  // Write group g: 0 the header words, 1..7 stream g-1. Its words and first address (words).
  function automatic logic [5:0] g_words(input logic [2:0] g);
    unique case (g)
      3'd0:    g_words = 6'(HdrWords);
      3'd1:    g_words = 6'(ane_regs_pkg::TdKernelDMASrcWords);
      3'd2:    g_words = 6'(ane_regs_pkg::TdCommonWords);
      3'd3:    g_words = 6'(ane_regs_pkg::TdTileDMASrcWords);
      3'd4:    g_words = 6'(ane_regs_pkg::TdL2Words);
      3'd5:    g_words = 6'(ane_regs_pkg::TdPlanarWords);
      3'd6:    g_words = 6'(ane_regs_pkg::TdNEWords);
      default: g_words = 6'(ane_regs_pkg::TdTileDMADstWords);
    endcase
  endfunction
  function automatic logic [RaW-1:0] g_addr(input logic [2:0] g);
    unique case (g)
      3'd0:    g_addr = '0;
      3'd1:    g_addr = RaW'(ane_regs_pkg::TdKernelDMASrcAddr / 4);
      3'd2:    g_addr = RaW'(ane_regs_pkg::TdCommonAddr / 4);
      3'd3:    g_addr = RaW'(ane_regs_pkg::TdTileDMASrcAddr / 4);
      3'd4:    g_addr = RaW'(ane_regs_pkg::TdL2Addr / 4);
      3'd5:    g_addr = RaW'(ane_regs_pkg::TdPlanarAddr / 4);
      3'd6:    g_addr = RaW'(ane_regs_pkg::TdNEAddr / 4);
      default: g_addr = RaW'(ane_regs_pkg::TdTileDMADstAddr / 4);
    endcase
  endfunction
  // Whether TD word w (9 bits; 0x1ff is the word before the TD) is a stream header word.
  function automatic logic is_sh(input logic [8:0] w);
    is_sh = w == {1'b0, s_word(3'd0)} || w == {1'b0, s_word(3'd1)} || w == {1'b0, s_word(3'd2)} ||
            w == {1'b0, s_word(3'd3)} || w == {1'b0, s_word(3'd4)} || w == {1'b0, s_word(3'd5)} ||
            w == {1'b0, s_word(3'd6)};
  endfunction

  // ---------------- walk state ----------------
  typedef enum logic [2:0] {
    IIdle   = 3'd0,
    IAddr   = 3'd1,  // TD address and end
    ICheck  = 3'd2,  // address checks
    IHdr    = 3'd3,  // the seven check reads
    IStream = 3'd4,  // the TD's beats
    INext   = 3'd5,  // wait for EON / NextPointer and for the TD's status to be taken
    IFlush  = 3'd6,  // stopped: the request on the port waits for its acceptance
    IHalt   = 3'd7   // no more reads in this walk
  } iss_e;
  typedef enum logic [1:0] {
    OIdle = 2'd0,
    OGate = 2'd1,  // wait for the TD's status
    ORun  = 2'd2,  // the TD's words leave
    OTask = 2'd3   // wait for task_done_i
  } out_e;

  logic           run_q;
  logic [31:0]    base_q, limit_q;
  iss_e           iss_q;
  logic [31:0]    off_q;          // offset of the TD being fetched
  logic [IW-1:0]  n_q;            // its index
  logic [28:0]    tb_q;           // its first beat
  logic           ph_q;           // its address bit 2 (word 0 in the beat's upper half)
  logic [32:0]    end_q;          // offset + TdBytes
  logic [6:0]     ik_q;           // read of the TD: check reads 0..6, then beats
  logic [28:0]    rb_q;           // beat address on the read port
  logic [OW-1:0]  out_all_q;      // reads not yet answered
  logic [OW-1:0]  out_str_q;      // beat reads whose words are not yet in the buffer
  // answers
  logic [6:0]     k_q;            // answer of the TD (same order as ik_q)
  logic           aph_q;          // phase of the TD being answered
  logic [8:0]     wl_q;           // TD word in the lower half of the next beat
  logic           a_v_q, a_chk_q, a_hi_q, a_last_q;
  logic [2:0]     a_c_q;
  logic [1:0]     a_keep_q, a_eon_q, a_next_q;   // [0] lower, [1] upper word
  logic [63:0]    a_data_q;
  logic           chk_bad_q;
  logic [2:0]     chk_s_q;
  // the TD's status, from the check answers or the address checks, until the write side takes it
  logic           st_valid_q;
  logic [2:0]     st_code_q, st_s_q;
  // words 0 and 7 of the TD being fetched
  logic           hdr_valid_q, hdr_eon_q;
  logic [31:0]    hdr_next_q;
  // word buffer
  logic [Depth*32-1:0] mem_q;
  logic [AW-1:0]  wp_q, rp_q;
  logic [AW:0]    cnt_q;
  // write side
  out_e           o_q;
  logic [IW-1:0]  ot_q;           // TD being written
  logic           eon_q;          // its EON
  logic [2:0]     g_q;            // write group of the next word
  logic [5:0]     gi_q;           // word in the group
  logic [RaW-1:0] ga_q;           // its register word address
  logic           o_v_q, o_hdr_q, o_last_q;
  logic [31:0]    o_data_q;
  logic [RaW-1:0] o_addr_q;
  logic [IW-1:0]  o_td_q;
  // results
  logic           done_q, err_q;
  logic [2:0]     err_code_q, err_s_q;
  logic [IW-1:0]  err_td_q;
  logic [31:0]    err_off_q;

  // ---------------- control ----------------
  logic start, rd_fire, ans, ld, take, raise, finish, abort;
  logic [AW:0] npush;
  logic credit;

  assign busy_o  = run_q || (iss_q == IFlush) || (out_all_q != '0);
  assign start   = start_i && !busy_o;
  assign rd_fire = rd_valid_o && rd_ready_i;
  assign ans     = rs_valid_i && run_q;
  // the write side takes the status of the TD it is at: at the gate, or right at task_done_i
  assign take    = st_valid_q && (st_code_q == ErrNone) &&
                   ((o_q == OGate) || (o_q == OTask && task_done_i && !o_v_q && !eon_q));
  assign raise   = st_valid_q && (st_code_q != ErrNone) &&
                   ((o_q == OGate) || (o_q == OTask && task_done_i && !o_v_q && !eon_q));
  assign finish  = (o_q == OTask) && task_done_i && !o_v_q && eon_q;
  assign abort   = raise || finish;

  // ---------------- read requests ----------------
  // Room for every outstanding beat's two words in the buffer.
  assign credit     = ({1'b0, out_str_q, 1'b0} + {{(OW + 1 - AW){1'b0}}, cnt_q} + (OW + 2)'(2)) <=
                      (OW + 2)'(Depth);
  assign rd_valid_o = (iss_q == IHdr) || (iss_q == IFlush) || ((iss_q == IStream) && credit);
  assign rd_addr_o  = {rb_q, 3'b000};

  // check read c's beat: TD word s_word(c) at beat (s_word(c) + phase) / 2
  function automatic logic [7:0] hoff(input logic [2:0] c, input logic ph);
    hoff = 8'(({1'b0, s_word(c)} + {8'd0, ph}) >> 1);
  endfunction

  // the TD's address checks (ICheck) and the walk's step to the next TD (INext)
  logic addr_err, next_go;
  assign addr_err = n_q >= IW'(MaxTds) || off_q[1:0] != 2'b00 || end_q > {1'b0, limit_q};
  assign next_go  = (iss_q == INext) && hdr_valid_q && !hdr_eon_q && !st_valid_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      iss_q <= IIdle;
    end else if (start) begin
      iss_q <= IAddr;
    end else if (abort) begin
      // the request on the port stays until accepted (valid holds until ready)
      iss_q <= (rd_valid_o && !rd_ready_i) ? IFlush : IIdle;
    end else begin
      unique case (iss_q)
        IAddr: iss_q <= ICheck;
        ICheck: iss_q <= addr_err ? IHalt : IHdr;  // IHalt: the status says why
        IHdr: if (rd_fire && ik_q == 7'(NStreams - 1)) iss_q <= IStream;
        IStream: if (rd_fire && ik_q == 7'(Reads - 1)) iss_q <= INext;
        // the write side has taken this TD's status before the next TD's can be made
        INext: begin
          if (hdr_valid_q && (hdr_eon_q || (st_valid_q && st_code_q != ErrNone))) iss_q <= IHalt;
          else if (next_go) iss_q <= IAddr;
        end
        IFlush: if (rd_ready_i) iss_q <= IIdle;
        IIdle, IHalt: ;
        default: iss_q <= IIdle;
      endcase
    end
  end

  // the walk's data registers (no reset: each is written before it is used in a walk)
  always_ff @(posedge clk_i) begin
    if (start) begin
      base_q <= base_i;
      limit_q <= limit_i;
      off_q <= '0;
      n_q <= '0;
    end else begin
      unique case (iss_q)
        IAddr: begin
          {tb_q, ph_q} <= 30'((base_q + off_q) >> 2);
          end_q <= {1'b0, off_q} + 33'(ane_regs_pkg::TdBytes);
        end
        ICheck: begin
          rb_q <= tb_q + 29'(hoff(3'd0, ph_q));
          ik_q <= '0;
        end
        IHdr: begin
          if (rd_fire) begin
            ik_q <= ik_q + 7'd1;
            if (ik_q == 7'(NStreams - 1)) rb_q <= tb_q;
            else rb_q <= tb_q + 29'(hoff(3'(ik_q + 7'd1), ph_q));
          end
        end
        IStream: begin
          if (rd_fire) begin
            ik_q <= ik_q + 7'd1;
            rb_q <= rb_q + 29'd1;
          end
        end
        INext: begin
          if (next_go) begin
            off_q <= hdr_next_q;
            n_q <= n_q + IW'(1);
          end
        end
        default: ;
      endcase
    end
  end

  // outstanding reads; run state
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      out_all_q <= '0;
      run_q <= 1'b0;
    end else begin
      out_all_q <= out_all_q + OW'(rd_fire) - OW'(rs_valid_i);
      if (start) run_q <= 1'b1;
      else if (abort) run_q <= 1'b0;
    end
  end

  // beat reads whose words are not yet in the buffer (set at start: no reset)
  always_ff @(posedge clk_i) begin
    if (start) out_str_q <= '0;
    else out_str_q <= out_str_q + OW'(rd_fire && iss_q == IStream) - OW'(a_v_q && !a_chk_q);
  end

  // ---------------- answers: stage 0 (count, classify) ----------------
  logic       ph_cur;
  logic [8:0] wh;
  logic [7:0] k_word;    // only bit 0: the half of a check answer's header word
  assign ph_cur = (k_q == '0) ? ph_q : aph_q;
  assign wh     = wl_q + 9'd1;
  assign k_word = s_word(k_q[2:0]);
  logic unused;
  assign unused = ^k_word[7:1];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) a_v_q <= 1'b0;
    else a_v_q <= ans;
  end

  always_ff @(posedge clk_i) begin
    if (start) begin
      k_q <= '0;
    end else if (ans) begin
      k_q <= (k_q == 7'(Reads - 1)) ? '0 : k_q + 7'd1;
      if (k_q == '0) aph_q <= ph_q;
      if (k_q == 7'(NStreams - 1)) wl_q <= ph_cur ? 9'h1ff : 9'h000;
      else if (k_q >= 7'(NStreams)) wl_q <= wl_q + 9'd2;
    end
    if (ans) begin
      a_data_q <= rs_data_i;
      a_chk_q  <= k_q < 7'(NStreams);
      a_c_q    <= k_q[2:0];
      a_hi_q   <= k_word[0] ^ ph_cur;
      a_last_q <= k_q == 7'(NStreams - 1);
      a_keep_q <= {wh < 9'(TdWords) && !is_sh(wh), wl_q < 9'(TdWords) && !is_sh(wl_q)};
      a_eon_q  <= {wh == 9'(WEon), wl_q == 9'(WEon)};
      a_next_q <= {wh == 9'(WNext), wl_q == 9'(WNext)};
    end
  end

  // ---------------- answers: stage 1 (check, buffer) ----------------
  logic [31:0] a_lo, a_hi, a_word, w_a, w_b;
  logic        a_bad, a_str;
  assign a_lo   = a_data_q[31:0];
  assign a_hi   = a_data_q[63:32];
  assign a_word = a_hi_q ? a_hi : a_lo;
  assign a_bad  = a_word != s_header(a_c_q);
  assign a_str  = a_v_q && run_q && !a_chk_q;
  assign npush  = a_str ? (AW + 1)'(a_keep_q[0]) + (AW + 1)'(a_keep_q[1]) : '0;
  assign w_a    = a_keep_q[0] ? a_lo : a_hi;
  assign w_b    = a_hi;

  // the status of the TD (valid until the write side takes it) and its words 0 and 7
  logic [2:0] addr_code;
  assign addr_code = n_q >= IW'(MaxTds) ? ErrMaxTds : off_q[1:0] != 2'b00 ? ErrAlign : ErrLimit;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_valid_q <= 1'b0;
      hdr_valid_q <= 1'b0;
    end else if (start || abort) begin
      st_valid_q <= 1'b0;
      hdr_valid_q <= 1'b0;
    end else begin
      if (a_v_q && run_q && a_chk_q && a_last_q) st_valid_q <= 1'b1;  // the last check answer
      if (iss_q == ICheck && addr_err) st_valid_q <= 1'b1;            // no read of the TD
      if (take) st_valid_q <= 1'b0;
      if (a_str && a_next_q != 2'b00) hdr_valid_q <= 1'b1;
      if (next_go) hdr_valid_q <= 1'b0;
    end
  end

  always_ff @(posedge clk_i) begin
    // check answers: the first bad stream header of the TD
    if (a_v_q && a_chk_q) begin
      if (a_c_q == '0 || !chk_bad_q) begin
        chk_bad_q <= a_bad;
        chk_s_q <= a_c_q;
      end
      if (a_last_q) begin
        st_code_q <= (chk_bad_q || a_bad) ? ErrStream : ErrNone;
        st_s_q <= chk_bad_q ? chk_s_q : a_c_q;
      end
    end
    if (iss_q == ICheck && addr_err) begin
      st_code_q <= addr_code;
      st_s_q <= '0;
    end
    // words 0 and 7 of the TD's beats
    if (a_v_q && !a_chk_q) begin
      if (a_eon_q[0]) hdr_eon_q <= a_lo[ane_regs_pkg::TdHeader0EONLsb];
      if (a_eon_q[1]) hdr_eon_q <= a_hi[ane_regs_pkg::TdHeader0EONLsb];
      if (a_next_q[0]) hdr_next_q <= a_lo[ane_regs_pkg::TdHeader7NextPointerLsb +: ane_regs_pkg::TdHeader7NextPointerWidth];
      if (a_next_q[1]) hdr_next_q <= a_hi[ane_regs_pkg::TdHeader7NextPointerLsb +: ane_regs_pkg::TdHeader7NextPointerWidth];
    end
  end

  // ---------------- word buffer ----------------
  // Two banks, even and odd entries: the one or two words of a beat go to consecutive entries,
  // so each bank takes at most one word per cycle, and each entry one source (a flop with an
  // enable, no per-entry data multiplexer).
  logic [AW-1:0] wp1;
  logic [31:0]   head, bank_d0, bank_d1;
  assign wp1     = wp_q + AW'(1);
  assign head    = mem_q[32 * rp_q +: 32];
  assign bank_d0 = wp_q[0] ? w_b : w_a;
  assign bank_d1 = wp_q[0] ? w_a : w_b;

  for (genvar e = 0; e < Depth; e++) begin : g_entry
    logic we;
    assign we = (npush != '0 && wp_q == AW'(e)) || (npush == (AW + 1)'(2) && wp1 == AW'(e));
    always_ff @(posedge clk_i) begin
      if (we) mem_q[32 * e +: 32] <= (e % 2 == 1) ? bank_d1 : bank_d0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wp_q <= '0; rp_q <= '0; cnt_q <= '0;
    end else if (start || abort) begin
      wp_q <= '0; rp_q <= '0; cnt_q <= '0;
    end else begin
      wp_q <= wp_q + AW'(npush);
      if (ld) rp_q <= rp_q + AW'(1);
      cnt_q <= cnt_q + npush - (AW + 1)'(ld);
    end
  end

  // ---------------- write side ----------------
  logic g_end, g_last;
  assign ld     = (o_q == ORun) && (cnt_q != '0) && (!o_v_q || wr_ready_i);
  assign g_end  = gi_q == g_words(g_q) - 6'd1;
  assign g_last = g_end && g_q == 3'(NStreams);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      o_q <= OIdle;
      o_v_q <= 1'b0;
      done_q <= 1'b0;
    end else begin
      done_q <= finish;
      if (start) begin
        o_q <= OGate;
        o_v_q <= 1'b0;
      end else if (abort) begin
        o_q <= OIdle;
      end else begin
        if (ld) o_v_q <= 1'b1;
        else if (wr_ready_i) o_v_q <= 1'b0;
        unique case (o_q)
          OGate: if (take) o_q <= ORun;
          ORun: if (ld && g_last) o_q <= OTask;
          OTask: if (task_done_i && !o_v_q) o_q <= take ? ORun : OGate;
          OIdle: ;
          default: o_q <= OIdle;
        endcase
      end
    end
  end

  // the write address generator and the TD's index and EON (set at start: no reset)
  always_ff @(posedge clk_i) begin
    if (start) begin
      ot_q <= '0;
      g_q <= '0;
      gi_q <= '0;
      ga_q <= '0;
    end else begin
      if (o_q == OTask && task_done_i && !o_v_q) ot_q <= ot_q + IW'(1);
      if (ld) begin
        if (g_q == '0 && gi_q == 6'(WEon)) eon_q <= head[ane_regs_pkg::TdHeader0EONLsb];
        if (g_end) begin
          g_q <= g_last ? '0 : g_q + 3'd1;
          gi_q <= '0;
          ga_q <= g_last ? '0 : g_addr(g_q + 3'd1);
        end else begin
          gi_q <= gi_q + 6'd1;
          ga_q <= ga_q + RaW'(1);
        end
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (ld) begin
      o_data_q <= head;
      o_addr_q <= ga_q;
      o_hdr_q  <= g_q == '0;
      o_last_q <= g_last;
      o_td_q   <= ot_q;
    end
  end

  assign wr_valid_o  = o_v_q;
  assign wr_data_o   = o_data_q;
  assign wr_addr_o   = 24'({o_addr_q, 2'b00});
  assign wr_header_o = o_hdr_q;
  assign wr_last_o   = o_last_q;
  assign wr_td_o     = o_td_q;

  // ---------------- results ----------------
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      err_q <= 1'b0; err_code_q <= ErrNone; err_s_q <= '0; err_td_q <= '0; err_off_q <= '0;
    end else if (start) begin
      err_q <= 1'b0; err_code_q <= ErrNone; err_s_q <= '0; err_td_q <= '0; err_off_q <= '0;
    end else if (raise) begin
      err_q <= 1'b1;
      err_code_q <= st_code_q;
      err_s_q <= st_s_q;
      err_td_q <= n_q;
      err_off_q <= off_q;
    end
  end

  assign done_o       = done_q;
  assign error_o      = err_q;
  assign err_code_o   = err_code_q;
  assign err_stream_o = err_s_q;
  assign err_td_o     = err_td_q;
  assign err_off_o    = err_off_q;

`ifndef SYNTHESIS
  initial begin
    assert (MaxTds >= 1);
    assert (Depth >= 4 && (Depth & (Depth - 1)) == 0);
    assert (ane_regs_pkg::TdBytes % 8 == 4);  // 79 beats hold the TD at either phase
    assert (NStreams == 7 && Reads < 128 && TdWords < 256);
    assert (WEon < HdrWords && WNext < HdrWords);
    assert (ane_regs_pkg::TdHeader7NextPointerWidth == 32);
    assert (RegW <= 24 && HdrWords * 4 <= EMax);
    // the streams tile the TD, and each header word says count / 4 + 1 = its data words
    assert (s_word(3'd0) == 8'(HdrWords));
    for (int s = 0; s < 7; s++) begin
      assert (s_header(3'(s)) == {8'(4 * (32'(g_words(3'(s + 1))) - 32'd1)), 24'(4 * 32'(g_addr(3'(s + 1))))});
      if (s < 6) begin
        assert (s_word(3'(s + 1)) == s_word(3'(s)) + 8'd1 + 8'(g_words(3'(s + 1))));
      end else begin
        assert (32'(s_word(3'(s))) + 32'd1 + 32'(g_words(3'(s + 1))) == TdWords);
      end
    end
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni) begin
      if (rs_valid_i) assert (out_all_q != '0);
      if (start_i) assert (!busy_o);
      if (start_i) assert (base_i[1:0] == 2'b00);
      assert (cnt_q + npush <= (AW + 1)'(Depth));
      if (ld) assert (cnt_q != '0);
      assert (!(take && raise));
    end
  end
`endif

endmodule

`default_nettype wire
